import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The declarations a user of @patchbay/store gets, built as `pnpm build` builds them. `pg` is an
// optional peer: a declaration that imports it fails every consumer's type-check under
// `skipLibCheck: false` when it is not installed (SQLite users never install it).

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
// Inside the package (so @patchbay/* resolve as they do for a user) and ignored by git.
const outDir = join(packageDir, `.patchbay-test-types-${process.pid}`);
const require = createRequire(import.meta.url);
const bin = (module: string, path: string) => join(require.resolve(`${module}/package.json`), '..', path);

/** Every module specifier a declaration file imports or re-exports. */
function specifiersOf(text: string): string[] {
  const found = [
    ...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
  ];
  return found.map((match) => match[1] ?? '');
}

let build = '';
beforeAll(async () => {
  const { stdout, stderr } = await run(
    process.execPath,
    [bin('tsup', 'dist/cli-default.js'), '--dts-only', '--out-dir', outDir],
    { cwd: packageDir, env: { ...process.env, NO_COLOR: '1' } },
  );
  build = stdout + stderr;
}, 240_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the published type declarations', () => {
  it('import nothing but the package itself, its dependencies and node:*, never pg', () => {
    const files = readdirSync(outDir).filter((name) => name.endsWith('.d.ts'));
    expect(files).toContain('index.d.ts');
    const imported = new Set(files.flatMap((name) => specifiersOf(readFileSync(join(outDir, name), 'utf8'))));
    const foreign = [...imported].filter(
      (specifier) =>
        !specifier.startsWith('./') &&
        !specifier.startsWith('node:') &&
        specifier !== '@patchbay/connector' &&
        specifier !== '@patchbay/connector/ports' &&
        specifier !== '@patchbay/helpers' &&
        specifier !== '@patchbay/envelope',
    );
    expect(foreign).toEqual([]);
  });

  it('build without the rollup-plugin-dts warning about unexported shared types', () => {
    expect(build).not.toMatch(/private shared type exports/);
  });

  it('type-check in a consumer with skipLibCheck: false', async () => {
    writeFileSync(
      join(outDir, 'consumer.ts'),
      [
        "import { openStore, type PatchbayStore, type ResolvedSecretKey } from './index.js';",
        "import type { OpenPostgresStoreOptions } from './postgres.js';",
        'export const open: () => PatchbayStore = () => openStore();',
        'export type Key = ResolvedSecretKey;',
        'export type Options = OpenPostgresStoreOptions;',
      ].join('\n'),
    );
    writeFileSync(
      join(outDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
          customConditions: ['@patchbay/source'],
          allowImportingTsExtensions: true,
        },
        files: ['consumer.ts'],
      }),
    );
    const result = await run(process.execPath, [bin('typescript', 'bin/tsc'), '-p', outDir], {
      cwd: outDir,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    expect(result.stdout).toBe('');
  }, 240_000);
});
