import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CodeBlock, typescriptBlocks, userDocuments } from './readme-examples.js';
import { root } from './workspace.js';

// One `tsc` over every block of every document: ~10 s on a quiet 2-core machine, several times that
// with both cores busy, so the limit is minutes rather than the shared default.
const typecheckTimeoutMs = 300_000;

const outputDir = join(root, 'tests/.generated/readme-examples');

function moduleName(block: CodeBlock): string {
  return `${block.file.replace(/[^A-Za-z0-9]+/g, '_')}_L${block.line}.ts`;
}

describe('README examples', () => {
  const blocks = userDocuments().flatMap(typescriptBlocks);

  it('finds the examples (the extractor itself works)', () => {
    expect(blocks.length).toBeGreaterThan(15);
    const rootReadme = blocks.filter((block) => block.file === 'README.md');
    expect(rootReadme.length).toBeGreaterThan(0);
  });

  it(
    'type-check as printed, each block a module of its own (strict, NodeNext)',
    () => {
      rmSync(outputDir, { recursive: true, force: true });
      mkdirSync(outputDir, { recursive: true });
      const byModule = new Map<string, CodeBlock>();
      for (const block of blocks) {
        const name = moduleName(block);
        byModule.set(name, block);
        // `export {}` keeps each block a module, so two blocks may declare the same names.
        writeFileSync(join(outputDir, name), `${block.code}\nexport {};\n`);
      }
      writeFileSync(
        join(outputDir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../../../tsconfig.base.json',
          compilerOptions: { noUnusedLocals: false, noUnusedParameters: false },
          include: ['*.ts'],
        }),
      );
      const result = spawnSync(
        process.execPath,
        [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(outputDir, 'tsconfig.json')],
        { cwd: outputDir, encoding: 'utf8', timeout: typecheckTimeoutMs - 10_000 },
      );
      // Point each diagnostic at the README line it came from rather than at the generated file.
      const diagnostics = `${result.stdout}${result.stderr}`.replace(
        /^([^\s(]+\.ts)\((\d+),(\d+)\)/gm,
        (whole, file: string, line: string) => {
          const block = byModule.get(file.split('/').pop() ?? '');
          return block ? `${block.file}:${block.line + Number(line) - 1}` : whole;
        },
      );
      expect(diagnostics.trim(), 'README TypeScript blocks that do not type-check').toBe('');
      expect(result.status).toBe(0);
    },
    typecheckTimeoutMs,
  );
});
