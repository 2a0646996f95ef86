// The scripts of evals/ run as a person runs them, in throwaway copies: `pnpm eval` before
// `pnpm build`, and the data vendoring script without its source directory or with a full one.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const evals = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'patchbay-eval-scripts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A node process and an import or two: well under a second idle, several with both cores busy.
const timeout = 60_000;
const node = (script: string, args: string[] = []) =>
  spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout, env: { ...process.env } });

const writeJson = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};

describe('pnpm eval before pnpm build', () => {
  // A workspace in miniature: evals → @patchbay/eval → @patchbay/turn, linked as pnpm links them,
  // with the real run-eval script; dist/ is what a build would write.
  const root = join(scratch, 'workspace');
  const packageDir = (name: string) => join(root, 'packages', name);
  for (const [name, dependencies] of [
    ['eval', { '@patchbay/turn': 'workspace:^' }],
    ['turn', {}],
  ] as const) {
    writeJson(join(packageDir(name), 'package.json'), {
      name: `@patchbay/${name}`,
      type: 'module',
      exports: { '.': { '@patchbay/source': './src/index.ts', import: './dist/index.js' } },
      dependencies,
    });
  }
  const link = (from: string, name: string) => {
    mkdirSync(join(from, 'node_modules', '@patchbay'), { recursive: true });
    symlinkSync(packageDir(name), join(from, 'node_modules', '@patchbay', name), 'dir');
  };
  link(packageDir('eval'), 'turn');
  const evalsCopy = join(root, 'evals');
  writeJson(join(evalsCopy, 'package.json'), {
    name: '@patchbay/evals',
    type: 'module',
    dependencies: { '@patchbay/eval': 'workspace:^', yaml: '^2.8.1' },
  });
  link(evalsCopy, 'eval');
  mkdirSync(join(evalsCopy, 'scripts'));
  for (const script of ['run-eval.mjs', 'unbuilt-packages.mjs']) {
    copyFileSync(join(evals, 'scripts', script), join(evalsCopy, 'scripts', script));
  }
  const runEval = (...args: string[]) => node(join(evalsCopy, 'scripts', 'run-eval.mjs'), args);

  it('says in one line which packages are not built and what to run, and exits 2', { timeout }, () => {
    const result = runEval();
    expect(result.stderr).toBe(
      '[eval] pnpm eval runs the built packages, and 2 are not built (@patchbay/eval, @patchbay/turn). Run `pnpm build` first, then `pnpm eval` again.\n',
    );
    expect(result.stdout).toBe('');
    expect(result.status).toBe(2);
    expect(runEval('--baselines').stderr).toContain(
      'Run `pnpm build` first, then `pnpm eval:baselines` again.',
    );
  });

  it('names only what is missing, and runs the command once everything is built', { timeout }, () => {
    mkdirSync(join(packageDir('eval'), 'dist'));
    writeFileSync(
      join(packageDir('eval'), 'dist', 'index.js'),
      'export async function runCommand(argv) { console.log(JSON.stringify(argv.slice(3))); return 0; }\n',
    );
    expect(runEval().stderr).toContain('and one is not built (@patchbay/turn).');
    mkdirSync(join(packageDir('turn'), 'dist'));
    writeFileSync(join(packageDir('turn'), 'dist', 'index.js'), 'export {};\n');
    const built = runEval('--filter', 'seed');
    expect(built.stderr).toBe('');
    // run --config <this config> --promptfoo, then the person's own arguments.
    expect(JSON.parse(built.stdout)).toEqual(['--promptfoo', '--filter', 'seed']);
    expect(built.status).toBe(0);
  });
});

describe('scripts/vendor-external.mjs', () => {
  // A copy of evals/ with what the script reads (its scenarios, yaml) and writes (data/).
  const copy = join(scratch, 'evals');
  mkdirSync(join(copy, 'scripts'), { recursive: true });
  copyFileSync(join(evals, 'scripts', 'vendor-external.mjs'), join(copy, 'scripts', 'vendor-external.mjs'));
  cpSync(join(evals, 'scenarios'), join(copy, 'scenarios'), { recursive: true });
  cpSync(join(evals, 'data'), join(copy, 'data'), { recursive: true });
  symlinkSync(join(evals, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const script = join(copy, 'scripts', 'vendor-external.mjs');
  const dataFiles = () =>
    readdirSync(join(copy, 'data'), { recursive: true, encoding: 'utf8' })
      .filter((name) => statSync(join(copy, 'data', name)).isFile())
      .sort()
      .map((name) => [name, readFileSync(join(copy, 'data', name), 'utf8')]);
  const original = dataFiles();

  it('has no default source directory, and changes nothing without one or with an incomplete one', {
    timeout,
  }, () => {
    expect(readFileSync(script, 'utf8')).not.toMatch(/['"]\/(work|home|tmp|Users)\//);
    const bare = node(script);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: node scripts\/vendor-external\.mjs <external-dir>/);
    const empty = join(scratch, 'empty-external');
    mkdirSync(join(empty, 'bfcl'), { recursive: true });
    writeFileSync(join(empty, 'bfcl', 'LICENSE'), 'not the licence');
    const incomplete = node(script, [empty]);
    expect(incomplete.status).toBe(2);
    expect(incomplete.stderr).toContain(
      'lacks bfcl/BFCL_v4_irrelevance.json, bfcl/BFCL_v4_multi_turn_miss_param.json, agentdojo/attacks.json, agentdojo/LICENSE; nothing was copied.',
    );
    expect(dataFiles()).toEqual(original);
  });

  it('reproduces the vendored slices from a source directory holding them', { timeout }, () => {
    // The upstream files, rebuilt from the slices with one unrelated case each: the script must keep
    // exactly the cases the scenarios name and copy the rest unchanged.
    const external = join(scratch, 'external');
    mkdirSync(join(external, 'bfcl'), { recursive: true });
    mkdirSync(join(external, 'agentdojo'), { recursive: true });
    for (const name of ['BFCL_v4_irrelevance', 'BFCL_v4_multi_turn_miss_param']) {
      const lines = readFileSync(join(evals, 'data', 'bfcl', `${name}.jsonl`), 'utf8')
        .trimEnd()
        .split('\n');
      lines.splice(1, 0, JSON.stringify({ id: `${name}_not_used`, question: [] }));
      writeFileSync(join(external, 'bfcl', `${name}.json`), `${lines.join('\n')}\n`);
    }
    copyFileSync(join(evals, 'data', 'bfcl', 'LICENSE'), join(external, 'bfcl', 'LICENSE'));
    copyFileSync(
      join(evals, 'data', 'agentdojo', 'attacks.json'),
      join(external, 'agentdojo', 'attacks.json'),
    );
    copyFileSync(join(evals, 'data', 'agentdojo', 'LICENSE'), join(external, 'agentdojo', 'LICENSE'));
    for (const file of readdirSync(join(copy, 'data', 'bfcl'))) rmSync(join(copy, 'data', 'bfcl', file));
    const result = node(script, [external]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(dataFiles()).toEqual(original);
  });
});
