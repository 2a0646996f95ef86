import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './workspace.js';

/** One fenced TypeScript block of a Markdown document. */
export interface CodeBlock {
  /** Path of the document, relative to the repository root. */
  file: string;
  /** 1-based line of the block's first code line in that document. */
  line: number;
  code: string;
}

/**
 * Every Markdown document a user reads: the root README, each package's and connector's README, the
 * evals and bench READMEs, and everything under `contributing/` and `docs/`.
 */
export function userDocuments(): string[] {
  const found = [join(root, 'README.md')];
  for (const parent of ['packages', 'connectors']) {
    const base = join(root, parent);
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      const readme = join(base, entry.name, 'README.md');
      if (entry.isDirectory() && existsSync(readme)) found.push(readme);
    }
  }
  for (const single of ['evals/README.md', 'bench/README.md', 'templates/connector/README.md']) {
    if (existsSync(join(root, single))) found.push(join(root, single));
  }
  for (const folder of ['contributing', 'docs']) {
    const base = join(root, folder);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) if (name.endsWith('.md')) found.push(join(base, name));
  }
  return found;
}

// The template's README holds `__ID__` placeholders that only the generator fills in; the generator
// test compiles the generated package, README excluded, so its blocks are checked there by proxy.
const skippedDocuments = new Set(['templates/connector/README.md']);

/**
 * Extracts the ```ts / ```typescript blocks of a document. A block whose info string carries
 * `no-check` (```ts no-check) is a deliberate fragment and is left out; use it sparingly.
 */
export function typescriptBlocks(path: string): CodeBlock[] {
  const file = relative(root, path);
  if (skippedDocuments.has(file)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  let open: { line: number; body: string[]; checked: boolean; fence: string } | undefined;
  lines.forEach((text, index) => {
    if (open) {
      if (text.trimStart().startsWith(open.fence) && text.trim() === open.fence) {
        if (open.checked) blocks.push({ file, line: open.line, code: open.body.join('\n') });
        open = undefined;
      } else {
        open.body.push(text);
      }
      return;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/.exec(text);
    if (!fence) return;
    const language = (fence[3] ?? '').toLowerCase();
    open = {
      line: index + 2,
      body: [],
      fence: fence[2] ?? '```',
      checked: (language === 'ts' || language === 'typescript') && !(fence[4] ?? '').includes('no-check'),
    };
  });
  return blocks;
}
