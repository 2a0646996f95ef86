// Stryker's `patchbay-eval` test runner (evals/mutation/eval-test-runner.mjs) against its worker, on the
// three scenarios of fixtures/mutation-runner: one passes, two fail whatever the code does (standing in
// for scenarios a mutant makes fail). No instrumented build is needed: what is checked is how runs
// are requested and reported (tests, bail, kill counts, timeouts, the log), not the mutants.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the evals, without types.
import { PatchbayEvalTestRunner } from '../mutation/eval-test-runner.mjs';

/** Each case starts the worker (about 1.6 s alone, several times that with both cores busy). */
const workerTimeoutMs = 120_000;
const silent = { debug() {}, info() {}, warn() {}, error() {}, isDebugEnabled: () => false };
const mutant = (fileName: string, id = '7') => ({
  id,
  fileName,
  mutatorName: 'ConditionalExpression',
  replacement: 'false',
  location: { start: { line: 3, column: 1 }, end: { line: 3, column: 9 } },
});
const run = (overrides: Record<string, unknown>) => ({
  timeout: 60_000,
  disableBail: false,
  mutantActivation: 'runtime',
  reloadEnvironment: false,
  sandboxFileName: 'x',
  ...overrides,
});

describe('the patchbay-eval mutation test runner', () => {
  let directory: string;
  let log: string;
  let runner: InstanceType<typeof PatchbayEvalTestRunner>;
  const scenarios = process.env.PATCHBAY_EVAL_SCENARIOS;

  beforeAll(() => {
    process.env.PATCHBAY_EVAL_SCENARIOS = join(import.meta.dirname, 'fixtures/mutation-runner');
    directory = mkdtempSync(join(tmpdir(), 'patchbay-mutation-runner-'));
    log = join(directory, 'runs.jsonl');
    runner = new PatchbayEvalTestRunner(
      { patchbayEval: { killCounts: 'critical\\.ts$', log } } as never,
      silent as never,
    );
  });
  afterAll(async () => {
    await runner.dispose();
    if (scenarios === undefined) delete process.env.PATCHBAY_EVAL_SCENARIOS;
    else process.env.PATCHBAY_EVAL_SCENARIOS = scenarios;
    rmSync(directory, { recursive: true, force: true });
  });

  it(
    'reports every scenario of the dry run as a test, with a coverage record',
    async () => {
      const result = await runner.dryRun({
        timeout: 60_000,
        disableBail: false,
        coverageAnalysis: 'perTest',
      });
      expect(result.status).toBe(DryRunStatus.Complete);
      if (result.status !== DryRunStatus.Complete) return;
      expect(result.tests.map((test: { id: string; status: TestStatus }) => [test.id, test.status])).toEqual([
        ['runner-passes', TestStatus.Success],
        ['runner-fails-first', TestStatus.Failed],
        ['runner-fails-second', TestStatus.Failed],
      ]);
      expect(result.mutantCoverage).toEqual({ static: expect.any(Object), perTest: expect.any(Object) });
    },
    workerTimeoutMs,
  );

  it(
    'stops at the first failing scenario outside the kill-count files, at the second inside them',
    async () => {
      const ordinary = await runner.mutantRun(run({ activeMutant: mutant('src/ordinary.ts') }));
      expect(ordinary).toMatchObject({ status: MutantRunStatus.Killed, killedBy: ['runner-fails-first'] });
      const critical = await runner.mutantRun(run({ activeMutant: mutant('src/critical.ts') }));
      expect(critical).toMatchObject({
        status: MutantRunStatus.Killed,
        killedBy: ['runner-fails-first', 'runner-fails-second'],
        nrOfTests: 3,
      });
      const everything = await runner.mutantRun(
        run({ activeMutant: mutant('src/ordinary.ts'), disableBail: true }),
      );
      expect(everything).toMatchObject({ killedBy: ['runner-fails-first', 'runner-fails-second'] });
    },
    workerTimeoutMs,
  );

  it(
    "runs only Stryker's test filter, and a mutant no filtered scenario fails survives",
    async () => {
      const result = await runner.mutantRun(
        run({ activeMutant: mutant('src/critical.ts'), testFilter: ['runner-passes'] }),
      );
      expect(result).toEqual({
        status: MutantRunStatus.Survived,
        nrOfTests: 1,
        duration: expect.any(Number),
      });
    },
    workerTimeoutMs,
  );

  it(
    'answers a run that outlasts its timeout as timed out, and the next run gets a new worker',
    async () => {
      const result = await runner.mutantRun(run({ activeMutant: mutant('src/ordinary.ts'), timeout: 1 }));
      expect(result.status).toBe(MutantRunStatus.Timeout);
      const next = await runner.mutantRun(
        run({ activeMutant: mutant('src/ordinary.ts'), testFilter: ['runner-passes'] }),
      );
      expect(next.status).toBe(MutantRunStatus.Survived);
    },
    workerTimeoutMs,
  );

  it(
    'runs a mutant active at load time in a worker of its own',
    async () => {
      const result = await runner.mutantRun(
        run({
          activeMutant: mutant('src/ordinary.ts', '9'),
          mutantActivation: 'static',
          reloadEnvironment: true,
        }),
      );
      expect(result).toMatchObject({ status: MutantRunStatus.Killed, killedBy: ['runner-fails-first'] });
    },
    workerTimeoutMs,
  );

  it('logs every verdict as it comes', () => {
    const entries = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(entries.map((entry) => [entry.mutant, entry.file, entry.status])).toEqual([
      ['7', 'src/ordinary.ts', 'killed'],
      ['7', 'src/critical.ts', 'killed'],
      ['7', 'src/ordinary.ts', 'killed'],
      ['7', 'src/critical.ts', 'survived'],
      ['7', 'src/ordinary.ts', 'timeout'],
      ['7', 'src/ordinary.ts', 'survived'],
      ['9', 'src/ordinary.ts', 'killed'],
    ]);
  });
});
