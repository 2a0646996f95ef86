// @ts-check
// Stryker's `patchbay-eval` test runner: the eval scenarios as Stryker's tests, one test per scenario,
// run by a long-lived worker (evals/scripts/mutation-worker.mjs) on the instrumented build.
//
// Against the command runner of `pnpm mutate:eval` (one `check-scenarios` process per mutant), it
// brings what Stryker's own runners have:
// - no start-up per mutant (the suite takes 1.6 s to load, most of a killed mutant's time);
// - `perTest` coverage: the dry run records which scenarios reach which mutant, so a mutant runs only
//   the scenarios that reach it, and one no scenario reaches is reported `NoCoverage` without a run;
// - the mutants one scenario alone kills, where it matters: for the files matched by
//   `patchbayEval.killCounts` (a regex; the safety-critical files) a mutant's scenarios run until a
//   second one fails, not the first, so the report's `killedBy` says whether one scenario kills it or
//   at least two (all of them would cost the whole suite per mutant: about two hours for these files
//   on 2 cores); `mutation-summary.mjs` lists the mutants with one. Elsewhere a run stops at the first
//   failure, as Stryker's does. Stryker's `disableBail` runs every scenario of every mutant.
// - every mutant's verdict appended to `patchbayEval.log` (JSON lines) as it comes, so an interrupted
//   run keeps what it measured.
//
// The worker is replaced after a timeout, after a mutant active at load time (`static`), and every
// `patchbayEval.restartEvery` runs (default 40), which bounds what module state one mutant's run could
// leave for another's. The packages keep no state between scenarios beyond caches keyed by each
// scenario's own objects (WeakMaps), which a new scenario does not share.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';
import { runOn, startWorker } from '../scripts/mutation-worker-client.mjs';

/** @param {{ id: string, pass: boolean, reason: string, ms: number }} test */
const toTestResult = (test) =>
  test.pass
    ? { id: test.id, name: test.id, status: TestStatus.Success, timeSpentMs: Math.round(test.ms) }
    : {
        id: test.id,
        name: test.id,
        status: TestStatus.Failed,
        failureMessage: test.reason,
        timeSpentMs: Math.round(test.ms),
      };

export class PatchbayEvalTestRunner {
  static inject = /** @type {const} */ ([commonTokens.options, commonTokens.logger]);

  /**
   * @param {import('@stryker-mutator/api/core').StrykerOptions & { patchbayEval?: { killCounts?: string, restartEvery?: number, log?: string } }} options
   * @param {import('@stryker-mutator/api/logging').Logger} logger
   */
  constructor(options, logger) {
    this.logger = logger;
    this.killCounts = options.patchbayEval?.killCounts ? new RegExp(options.patchbayEval.killCounts) : undefined;
    this.restartEvery = options.patchbayEval?.restartEvery ?? 40;
    this.log = options.patchbayEval?.log;
    if (this.log) mkdirSync(dirname(this.log), { recursive: true });
    /** @type {Worker | undefined} */
    this.worker = undefined;
  }

  capabilities() {
    return { reloadEnvironment: true };
  }

  async worker_() {
    if (this.worker && this.worker.runs >= this.restartEvery) this.stop();
    this.worker ??= await startWorker(undefined);
    return this.worker;
  }

  stop() {
    this.worker?.child.kill('SIGKILL');
    this.worker = undefined;
  }

  /** @param {import('@stryker-mutator/api/test-runner').DryRunOptions} options */
  async dryRun(options) {
    this.stop();
    const worker = await this.worker_();
    const done = await runOn(
      worker,
      { bail: 0, coverage: options.coverageAnalysis !== 'off' },
      // The dry run has no timeout from Stryker; the whole suite takes about 10 s here, 30 s loaded.
      Math.max(options.timeout, 600_000),
    );
    this.stop();
    if (!done) return { status: DryRunStatus.Timeout, reason: 'the eval suite did not finish in 10 minutes' };
    const tests = done.tests.map(toTestResult);
    const coverage = done.coverage ?? { static: {}, perTest: {} };
    return {
      status: DryRunStatus.Complete,
      tests,
      mutantCoverage:
        options.coverageAnalysis === 'perTest'
          ? coverage
          : { static: mergeCoverage(coverage), perTest: {} },
    };
  }

  /** @param {import('@stryker-mutator/api/test-runner').MutantRunOptions} options */
  async mutantRun(options) {
    const result = await this.runMutant(options);
    if (this.log) {
      const { id, fileName, location, mutatorName } = options.activeMutant;
      const entry = { mutant: id, file: fileName, line: location.start.line + 1, mutatorName, ...result };
      appendFileSync(this.log, `${JSON.stringify(entry)}\n`);
    }
    return result;
  }

  /** @param {import('@stryker-mutator/api/test-runner').MutantRunOptions} options */
  async runMutant(options) {
    const mutant = options.activeMutant;
    const fresh = options.mutantActivation === 'static' || options.reloadEnvironment;
    if (fresh) this.stop();
    const worker = fresh ? await startWorker(mutant.id) : await this.worker_();
    const bail = options.disableBail ? 0 : this.killCounts?.test(mutant.fileName) ? 2 : 1;
    const started = Date.now();
    let done;
    try {
      done = await runOn(
        worker,
        { ids: options.testFilter, mutant: mutant.id, hitLimit: options.hitLimit, bail, coverage: false },
        options.timeout,
      );
    } catch (error) {
      this.stop();
      return { status: MutantRunStatus.Error, errorMessage: String(error) };
    } finally {
      if (fresh) worker.child.kill('SIGKILL');
    }
    const duration = Date.now() - started;
    if (!done) {
      this.stop();
      return { status: MutantRunStatus.Timeout, reason: `the scenarios did not finish in ${options.timeout} ms`, duration };
    }
    if (options.hitLimit !== undefined && done.hitCount !== undefined && done.hitCount > options.hitLimit) {
      this.stop();
      return { status: MutantRunStatus.Timeout, reason: `hit limit reached (${done.hitCount}/${options.hitLimit})`, duration };
    }
    const failed = done.tests.filter((test) => !test.pass);
    if (failed.length === 0) return { status: MutantRunStatus.Survived, nrOfTests: done.tests.length, duration };
    return {
      status: MutantRunStatus.Killed,
      killedBy: failed.map((test) => test.id),
      failureMessage: `${failed[0].id}: ${failed[0].reason}`,
      nrOfTests: done.tests.length,
      duration,
    };
  }

  async dispose() {
    this.stop();
  }
}

/**
 * Static and per-test coverage as one map (the `all` coverage analysis).
 * @param {{ static: Record<string, number>, perTest: Record<string, Record<string, number>> }} coverage
 */
function mergeCoverage(coverage) {
  const all = { ...coverage.static };
  for (const hits of Object.values(coverage.perTest))
    for (const [id, count] of Object.entries(hits)) all[id] = (all[id] ?? 0) + count;
  return all;
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'patchbay-eval', PatchbayEvalTestRunner)];
