#!/usr/bin/env node
// The process behind Stryker's `patchbay-eval` test runner (evals/mutation/eval-test-runner.mjs):
// loads the eval suite once (about 1.6 s: the config imports every framework adapter and the eight
// connector packages) and then runs scenarios on request, over the IPC channel of `fork()`, with a
// mutant switched on in between. The packages it imports are Stryker's instrumented build (every
// mutant behind `globalThis.__stryker__.activeMutant`), so switching a mutant is setting that field:
// no process start per mutant.
//
// Messages in:  { type: 'run', ids?: string[], mutant?: string, hitLimit?: number, bail: number,
//                 coverage: boolean }   (bail: stop after that many failed scenarios; 0 runs them all)
// Messages out: { type: 'ready', ids }, then per run
//               { type: 'done', tests: [{ id, pass, reason, ms }], hitCount?, coverage? }
//
// With `coverage`, each scenario's id is the instrumentation's current test while it runs, so the
// mutants it reaches are recorded per scenario (Stryker's `perTest` coverage); what runs while no
// scenario does (module loading) is recorded as static. After each scenario the worker waits for the
// event loop to settle before switching ids, so late work of one scenario is not counted for the next.
// A mutant active at load time (`mutantActivation: 'static'`) gets a fresh worker started with
// `__STRYKER_ACTIVE_MUTANT__` in its environment, which the instrumentation reads on first use.
import { join } from 'node:path';
import { setImmediate as settle } from 'node:timers/promises';
import { loadEvalConfig, loadScenarios } from '@patchbay/eval';
import { reasonsOf, scenarioVerdict } from './scenario-verdict.mjs';

/** The instrumentation's namespace (see @stryker-mutator/instrumenter's header). */
const ns = globalThis.__stryker__ ?? {};
globalThis.__stryker__ = ns;

const config = await loadEvalConfig(join(import.meta.dirname, '..', 'patchbay-eval.config.mjs'));
const scenarios = loadScenarios(config, {
  filter: process.env.PATCHBAY_MUTATE_SCENARIOS || undefined,
});
const byId = new Map(scenarios.map((scenario) => [scenario.id, scenario]));

/**
 * The coverage record. Each instrumented module keeps the object it found on its first use, so it is
 * created once and emptied in place, never replaced: a new object would lose every hit of the modules
 * already loaded.
 */
const coverageRecord = () => {
  ns.mutantCoverage ??= { static: {}, perTest: {} };
  return ns.mutantCoverage;
};

async function run({ ids, mutant, hitLimit, bail, coverage }) {
  if (mutant !== undefined) {
    ns.activeMutant = mutant;
    // For any process a scenario starts: the instrumentation reads it there on first use.
    process.env.__STRYKER_ACTIVE_MUTANT__ = mutant;
  }
  ns.hitCount = hitLimit === undefined ? undefined : 0;
  ns.hitLimit = hitLimit;
  if (coverage) {
    const record = coverageRecord();
    for (const id of Object.keys(record.perTest)) delete record.perTest[id];
  }
  const tests = [];
  for (const id of ids ?? [...byId.keys()]) {
    const scenario = byId.get(id);
    if (!scenario) {
      tests.push({ id, pass: false, reason: 'no such scenario', ms: 0 });
      continue;
    }
    if (coverage) ns.currentTestId = id;
    const started = performance.now();
    const verdict = await scenarioVerdict(scenario, config);
    if (coverage) {
      await settle();
      ns.currentTestId = undefined;
    }
    tests.push({ id, pass: verdict.pass, reason: reasonsOf(verdict), ms: performance.now() - started });
    if (bail > 0 && tests.filter((test) => !test.pass).length >= bail) break;
  }
  const done = {
    type: 'done',
    tests,
    hitCount: ns.hitCount,
    ...(coverage ? { coverage: coverageRecord() } : {}),
  };
  ns.activeMutant = undefined;
  delete process.env.__STRYKER_ACTIVE_MUTANT__;
  ns.hitCount = undefined;
  return done;
}

process.on('message', (message) => {
  if (message?.type !== 'run') return;
  run(message).then(
    (done) => process.send(done),
    (error) => process.send({ type: 'error', message: String(error?.stack ?? error) }),
  );
});
process.send({ type: 'ready', ids: [...byId.keys()] });
