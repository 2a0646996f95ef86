import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { anatomyProblems } from './connector-anatomy.js';
import { root } from './workspace.js';

/**
 * Time limit of the generator test and of each child it runs (the generator, `tsc`, `vitest` on the
 * generated package): the whole test takes 16–17 s on a quiet machine and 31–48 s with both cores
 * busy (44 s measured at a load average of 15 on two cores). 300 s is 6× the slowest, so only a hang
 * fails it. A child gets the same limit as the test: spawnSync blocks, so a smaller child limit could
 * only fail earlier than the test would.
 */
const generatorTimeoutMs = 300_000;
vi.setConfig({ testTimeout: generatorTimeoutMs });

// The generated package lives two levels below the root (like connectors/<id>) but outside the
// workspace globs, with its three workspace dependencies linked by hand: no install needed.
const id = `zzgen${process.pid}`;
const parent = join(root, '.generated');
const target = join(parent, id);
// The generator writes the changeset into the nearest .changeset directory at or above its --dir:
// this one, so the repository's own .changeset never holds a package that does not exist.
const changesetDirectory = join(parent, '.changeset');
const changeset = join(changesetDirectory, `connector-${id}.md`);

afterAll(() => {
  rmSync(target, { recursive: true, force: true });
  rmSync(changeset, { force: true });
});

const run = (command: string, args: string[], cwd: string) =>
  spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    timeout: generatorTimeoutMs,
  });

describe('pnpm new:connector', () => {
  it('refuses a bad id with a usage message', () => {
    const result = run(process.execPath, ['scripts/new-connector.mjs', 'Bad-Id', '--dir', parent], root);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/usage: pnpm new:connector <id>/);
  });

  it('prints its usage for --help and refuses an unknown flag without a stack trace', () => {
    const help = run(process.execPath, ['scripts/new-connector.mjs', '--help'], root);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: pnpm new:connector <id>/);
    expect(help.stdout).toContain('contributing/add-a-connector.md');
    const unknown = run(process.execPath, ['scripts/new-connector.mjs', 'acme', '--frob'], root);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^new:connector: Unknown option '--frob'\.\n\nusage:/);
    expect(unknown.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('generates a package that type-checks and passes its tests and the conformance suite untouched', () => {
    mkdirSync(changesetDirectory, { recursive: true });
    const generated = run(
      process.execPath,
      ['scripts/new-connector.mjs', id, '--name', 'Zz Gen', '--dir', parent],
      root,
    );
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);

    const files = readdirSync(join(target, 'src'), { recursive: true }).map(String);
    expect(files).toEqual(
      expect.arrayContaining([`${id}-connector.ts`, `${id}-connector.test.ts`, 'index.ts']),
    );
    // Exactly the anatomy the workspace holds every connector to.
    expect(anatomyProblems(target, id)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'));
    expect(manifest.name).toBe(`@patchbay/connector-${id}`);
    // The workspace's release rule (tests/src/package-shape.test.ts): a changeset names the package,
    // here a first, minor release; and none went to the repository's own .changeset.
    const changesets = readdirSync(changesetDirectory)
      .filter((file) => file.endsWith('.md'))
      .map((file) => readFileSync(join(changesetDirectory, file), 'utf8'));
    expect(changesets.some((text) => text.includes(`"${manifest.name}"`))).toBe(true);
    expect(readFileSync(changeset, 'utf8')).toMatch(
      new RegExp(`^---\\n"@patchbay/connector-${id}": minor\\n---\\n\\nNew Zz Gen connector: `),
    );
    expect(existsSync(join(root, '.changeset', `connector-${id}.md`))).toBe(false);
    expect(generated.stdout).toContain(`connector-${id}.md`);
    expect(readFileSync(join(target, 'src/index.ts'), 'utf8')).toMatch(
      new RegExp(`\\bcreate${id.charAt(0).toUpperCase()}${id.slice(1)}\\b`),
    );

    mkdirSync(join(target, 'node_modules/@patchbay'), { recursive: true });
    // Every workspace package the generated one names, linked as an install would.
    const workspaceDependencies = [
      ...new Set(
        ['dependencies', 'peerDependencies', 'devDependencies'].flatMap((field) =>
          Object.keys(manifest[field] ?? {}).filter((name) => name.startsWith('@patchbay/')),
        ),
      ),
    ];
    expect(workspaceDependencies).toContain('@patchbay/connector');
    for (const name of workspaceDependencies) {
      const folder = name.replace('@patchbay/', '');
      symlinkSync(join(root, 'packages', folder), join(target, 'node_modules/@patchbay', folder));
    }

    const typecheck = run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], target);
    expect(typecheck.stdout + typecheck.stderr).toBe('');
    expect(typecheck.status).toBe(0);

    const resultFile = join(target, 'result.json');
    const tests = run(
      join(root, 'node_modules/.bin/vitest'),
      ['run', '--reporter=json', `--outputFile=${resultFile}`],
      target,
    );
    const result = JSON.parse(readFileSync(resultFile, 'utf8'));
    expect({ status: tests.status, failed: result.numFailedTests }).toEqual({ status: 0, failed: 0 });
    // The conformance suite alone contributes dozens of tests; a handful would mean it did not run.
    expect(result.numPassedTests).toBeGreaterThan(30);
  });
});
