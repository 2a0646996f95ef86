import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module without declarations; its JSDoc documents the shapes
import { countReport, selectedSuites, summarize, summaryLinePattern } from '../../scripts/test-summary.mjs';
import { root } from './workspace.js';

// Synthetic vitest JSON reports with the shapes vitest 5 writes (checked against a real run):
// assertionResults carry a status per test; a file that failed outside its tests has a `failed`
// status and no failed test, with the load error in `message` (empty when a hook threw).
const nestedFailure = {
  name: '/repo/packages/a/src/nested.test.ts',
  status: 'failed',
  message: '',
  assertionResults: [
    { fullName: 'outer inner fails', status: 'failed' },
    { fullName: 'outer inner passes', status: 'passed' },
    { fullName: 'skipped one', status: 'skipped' },
    { fullName: 'todo one', status: 'todo' },
  ],
};
const didNotLoad = {
  name: '/repo/packages/a/src/broken-import.test.ts',
  status: 'failed',
  message:
    "Cannot find module './does-not-exist.js' imported from /repo/packages/a/src/broken-import.test.ts",
  assertionResults: [],
};
const beforeAllThrew = {
  name: '/repo/packages/a/src/hook.test.ts',
  status: 'failed',
  message: '',
  assertionResults: [
    { fullName: 'hooked t1', status: 'skipped' },
    { fullName: 'hooked t2', status: 'skipped' },
  ],
};
const afterAllThrew = {
  name: '/repo/packages/a/src/late.test.ts',
  status: 'failed',
  message: 'late',
  assertionResults: [{ fullName: 'ok', status: 'passed' }],
};
const green = {
  name: '/repo/packages/a/src/green.test.ts',
  status: 'passed',
  message: '',
  assertionResults: [
    { fullName: 'one', status: 'passed' },
    { fullName: 'two', status: 'passed' },
  ],
};
// What vitest itself reports for the nested failure: one failed test, but the test's file and
// both describe blocks as three failed suites. The old count added both and said "3 failed".
const vitestTotals = { numFailedTests: 1, numFailedTestSuites: 3 };

describe('countReport', () => {
  it('counts one failed test inside nested describe blocks as one failure', () => {
    const counts = countReport({ ...vitestTotals, testResults: [nestedFailure] }, '/repo/packages/a');
    expect(counts).toMatchObject({ passed: 1, failed: 1 });
    expect(counts.failures).toEqual(['src/nested.test.ts > outer inner fails']);
    expect(counts.skipped).toEqual([
      'src/nested.test.ts > skipped one (skipped)',
      'src/nested.test.ts > todo one (todo)',
    ]);
  });

  it('counts a file that did not load as one failure, naming the error', () => {
    const counts = countReport({ testResults: [didNotLoad] }, '/repo/packages/a');
    expect(counts).toMatchObject({ passed: 0, failed: 1 });
    expect(counts.failures).toEqual([
      "src/broken-import.test.ts: Cannot find module './does-not-exist.js' imported from /repo/packages/a/src/broken-import.test.ts",
    ]);
  });

  it('counts a throwing beforeAll or afterAll as one failure for its file', () => {
    expect(countReport({ testResults: [beforeAllThrew] })).toMatchObject({ passed: 0, failed: 1 });
    expect(countReport({ testResults: [afterAllThrew] })).toMatchObject({ passed: 1, failed: 1 });
  });

  it('adds nothing for a green file', () => {
    expect(countReport({ testResults: [green] })).toEqual({
      passed: 2,
      failed: 0,
      failures: [],
      skipped: [],
    });
  });
});

describe('summarize', () => {
  const directory = mkdtempSync(join(tmpdir(), 'patchbay-summary-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('sums result files, counts a missing one as one failure, and adds the eval summary', () => {
    const write = (name: string, content: unknown) => {
      const file = join(directory, name);
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return file;
    };
    const suites = [
      {
        name: '@x/a',
        dir: '/repo/packages/a',
        resultFile: write('a.json', { testResults: [nestedFailure, green] }),
      },
      { name: '@x/b', dir: '/repo/packages/b', resultFile: write('b.json', { testResults: [didNotLoad] }) },
      { name: '@x/c', dir: '/repo/packages/c', resultFile: join(directory, 'never-written.json') },
      { name: '@x/d', dir: '/repo/packages/d', resultFile: write('d.json', '{"testResults": [') },
    ];
    const evalSummary = write('summary.json', { passed: 30, failed: 2 });
    const total = summarize(suites, evalSummary);
    expect({ passed: total.passed, failed: total.failed }).toEqual({
      passed: 3 + 30,
      failed: 1 + 1 + 1 + 1 + 2,
    });
    expect(total.rows).toEqual([
      ['@x/a', '3 passed, 1 failed, 2 skipped'],
      ['@x/b', '0 passed, 1 failed'],
      ['@x/c', '0 passed, 1 failed'],
      ['@x/d', '0 passed, 1 failed'],
      ['evals (last pnpm eval)', '30 passed, 2 failed'],
    ]);
    expect(total.failures).toContain('@x/c: no result (crashed before reporting)');
    expect(total.failures).toContain('@x/d: result file is not JSON');
  });
});

describe('selectedSuites', () => {
  it('keeps the suites whose test task a turbo dry run lists, not those only built as dependencies', () => {
    const suites = ['@x/a', '@x/b', '@x/c'].map((name) => ({ name }));
    const dryRun = {
      tasks: [
        { taskId: '@x/a#build', package: '@x/a', task: 'build' },
        { taskId: '@x/b#test', package: '@x/b', task: 'test' },
        { package: '@x/c', task: 'build' },
      ],
    };
    expect(selectedSuites(suites, dryRun)).toEqual([{ name: '@x/b' }]);
    expect(selectedSuites(suites, {})).toEqual([]);
  });
});

describe('pnpm test wiring', () => {
  // A throwaway workspace with the repository's own test script and runner, two suites with result
  // files already written, run through pnpm exactly as a user types it.
  const workspace = mkdtempSync(join(tmpdir(), 'patchbay-test-wiring-'));
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  mkdirSync(join(workspace, 'scripts'));
  for (const script of ['run-tests.mjs', 'test-summary.mjs', 'workspace.mjs']) {
    copyFileSync(join(root, 'scripts', script), join(workspace, 'scripts', script));
  }
  writeFileSync(
    join(workspace, 'package.json'),
    JSON.stringify({
      name: 'wiring',
      private: true,
      type: 'module',
      packageManager: rootManifest.packageManager,
      scripts: { test: rootManifest.scripts.test },
    }),
  );
  writeFileSync(join(workspace, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n  - evals\n');
  // The repository's turbo, linked as an install would, so `--filter` is turbo's own.
  writeFileSync(join(workspace, 'turbo.json'), JSON.stringify({ tasks: { test: {} } }));
  mkdirSync(join(workspace, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(root, 'node_modules', 'turbo'), join(workspace, 'node_modules', 'turbo'), 'dir');
  symlinkSync(
    join(root, 'node_modules', 'turbo', 'bin', 'turbo'),
    join(workspace, 'node_modules', '.bin', 'turbo'),
  );
  // @x/c has a suite and no result file (it crashed, or a filter left it out); the evals package
  // carries the last `pnpm eval`'s counts.
  mkdirSync(join(workspace, 'packages', 'c'), { recursive: true });
  writeFileSync(
    join(workspace, 'packages', 'c', 'package.json'),
    JSON.stringify({ name: '@x/c', scripts: { test: 'vitest run' } }),
  );
  mkdirSync(join(workspace, 'evals', 'results'), { recursive: true });
  writeFileSync(
    join(workspace, 'evals', 'package.json'),
    JSON.stringify({ name: '@patchbay/evals', scripts: { test: 'vitest run' } }),
  );
  writeFileSync(
    join(workspace, 'evals', '.vitest-result.json'),
    JSON.stringify({ testResults: [{ ...green, name: join(workspace, 'evals', 'test', 'green.test.ts') }] }),
  );
  writeFileSync(
    join(workspace, 'evals', 'results', 'summary.json'),
    JSON.stringify({ passed: 30, failed: 2 }),
  );
  for (const [name, report] of [
    ['a', { testResults: [nestedFailure, green] }],
    ['b', { testResults: [green] }],
  ] as const) {
    mkdirSync(join(workspace, 'packages', name), { recursive: true });
    writeFileSync(
      join(workspace, 'packages', name, 'package.json'),
      JSON.stringify({ name: `@x/${name}`, scripts: { test: 'vitest run' } }),
    );
    // Result files name test files by absolute path: move them into this package.
    const moved = report.testResults.map((file) => ({
      ...file,
      name: join(workspace, 'packages', name, 'src', file.name.split('/').at(-1) ?? ''),
    }));
    writeFileSync(
      join(workspace, 'packages', name, '.vitest-result.json'),
      JSON.stringify({ testResults: moved }),
    );
  }
  const pnpmTest = (...args: string[]) =>
    spawnSync('pnpm', ['test', '--', '--summary-only', ...args], {
      cwd: workspace,
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      // pnpm and node start: ~1.5 s quiet, 8–9 s measured with both cores busy.
      timeout: 60_000,
    });
  const lastLine = (output: string) => output.trimEnd().split('\n').at(-1);

  it('ends with the summary line, after a failure too, with nothing from pnpm after it', {
    timeout: 60_000,
  }, () => {
    const result = pnpmTest();
    // a: 3 passed, 1 failed; b: 2 passed; c: no result, 1 failed; evals: 2 passed, then 30 and 2.
    expect(lastLine(result.stdout)).toBe('37 passed, 4 failed');
    expect(lastLine(result.stdout)).toMatch(summaryLinePattern);
    expect(result.stdout).toContain('@x/a: src/nested.test.ts > outer inner fails');
    expect(result.stdout + result.stderr).not.toContain('ELIFECYCLE');
    expect(result.status).toBe(0);
  });

  it('exits 1 on a failure when asked to with --exit-code', { timeout: 60_000 }, () => {
    const result = pnpmTest('--exit-code');
    expect(result.status).toBe(1);
    // Why the default exits 0: after a non-zero exit pnpm prints its own line below the summary.
    expect(result.stdout.indexOf('ELIFECYCLE')).toBeGreaterThan(result.stdout.indexOf('37 passed, 4 failed'));
  });

  it('counts only the suites a --filter selects: no other suite as crashed, no eval counts', {
    timeout: 60_000,
  }, () => {
    // The safety property: a suite that was not asked to run is never counted, neither as crashed
    // nor through the eval summary. Before, `--filter @patchbay/envelope` ended "405 passed, 23 failed".
    const result = pnpmTest('--filter', '@x/b');
    const suiteRows = result.stdout
      .split('\n')
      .filter((line) => /^ {2}\S.* \d+ passed, \d+ failed/.test(line));
    expect(suiteRows).toEqual(['  @x/b        2 passed, 0 failed']);
    expect(lastLine(result.stdout)).toBe('2 passed, 0 failed');
    expect(result.status).toBe(0);
    const evals = pnpmTest('--filter', '@patchbay/evals');
    expect(lastLine(evals.stdout)).toBe('32 passed, 2 failed');
  });

  it('answers --help with the usage and no count, and a filter turbo refuses with exit 2 and no count', {
    timeout: 60_000,
  }, () => {
    const help = spawnSync('pnpm', ['test', '--', '--help'], {
      cwd: workspace,
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('pnpm test -- --filter @patchbay/envelope');
    expect(help.stdout).not.toMatch(/^\d+ passed, \d+ failed$/m);
    const refused = pnpmTest('--filter', '@x/nope');
    expect(refused.stdout).not.toMatch(/^\d+ passed, \d+ failed$/m);
    expect(refused.stderr).toContain("No package found with name '@x/nope'");
    expect(refused.stderr).toContain('pnpm test: turbo refused --filter @x/nope (above); nothing ran.');
    expect(refused.status).not.toBe(0);
  });
});
