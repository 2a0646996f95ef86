import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userDocuments } from './readme-examples.js';
import { root } from './workspace.js';

/** Relative Markdown link targets of a document: `[text](target)`, anchors and URLs left out. */
function relativeLinks(path: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        links.push({ target: target.split('#')[0] ?? '', line: index + 1 });
      }
    });
  return links;
}

/** Every relative link of the documents that leaves the repository or names a missing file. */
function brokenLinks(documents: readonly string[]): string[] {
  const broken: string[] = [];
  for (const document of documents) {
    for (const { target, line } of relativeLinks(document)) {
      const resolved = resolve(dirname(document), target);
      const where = `${relative(root, document)}:${line} → ${target}`;
      if (relative(root, resolved).startsWith('..')) broken.push(`${where} (outside the repository)`);
      else if (!existsSync(resolved)) broken.push(`${where} (no such file)`);
    }
  }
  return broken;
}

describe('documentation links', () => {
  it('stay inside the repository and point at files that exist', () => {
    expect(brokenLinks(userDocuments())).toEqual([]);
  });

  it('are reported when they leave the repository or name a missing file (the check itself works)', () => {
    const dir = join(root, 'tests/.generated/doc-links');
    mkdirSync(dir, { recursive: true });
    const document = join(dir, 'sample.md');
    writeFileSync(
      document,
      '[design](../../../../shared/DESIGN.md)\n[gone](missing.md)\n[ok](sample.md) [web](https://example.com)\n',
    );
    expect(brokenLinks([document])).toEqual([
      'tests/.generated/doc-links/sample.md:1 → ../../../../shared/DESIGN.md (outside the repository)',
      'tests/.generated/doc-links/sample.md:2 → missing.md (no such file)',
    ]);
  });
});
