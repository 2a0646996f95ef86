#!/usr/bin/env node
// Re-runs mutants of a Stryker run against scenarios written after it started, on the same
// instrumented build (the packages' dist/ as Stryker built it: every mutant behind a switch; run this
// before rebuilding them), through the mutation worker (one process, the mutant switched per run; a
// process of its own for a mutant active at load time).
//   node evals/scripts/mutation-recheck.mjs <mutation.json> <run log> <recheck log> <id regex> [file regex] [--kills]
// Without `--kills`: every survivor (in the files the optional regex matches) runs the scenarios whose
// ids match, stopping at the first failure; its verdict is appended to the recheck log in the format of
// scripts/mutation-command.mjs, with `before` taken from the run's own log (a `before-after.jsonl`, or
// `-` for none), so mutation-summary.mjs can merge it.
// With `--kills`: the killed mutants Stryker's report says one scenario kills (`killedBy` of one id,
// from a run that stops at the second failure) run the matching scenarios until two fail; the log
// gets `{ mutant, before, after: 'killed', killers }` with every scenario that failed, so the summary
// counts a second killer.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { runOn, startWorker } from './mutation-worker-client.mjs';

const args = process.argv.slice(2);
const kills = args.includes('--kills');
const [reportFile, runLog, recheckLog, filter, files = '.'] = args.filter((arg) => arg !== '--kills');
if (!filter)
  throw new Error(
    'usage: mutation-recheck.mjs <mutation.json> <run log|-> <recheck log> <id regex> [file regex] [--kills]',
  );
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const before = new Map(
  runLog !== '-' && existsSync(runLog)
    ? readFileSync(runLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .map((entry) => [String(entry.mutant), entry.before])
    : [],
);
const mutants = Object.entries(report.files)
  .filter(([file]) => new RegExp(files).test(file))
  .flatMap(([, file]) => file.mutants)
  .filter((mutant) =>
    kills ? mutant.status === 'Killed' && mutant.killedBy?.length === 1 : mutant.status === 'Survived',
  );
// A Stryker report names tests by id; its `testFiles` say which scenario each id is.
const testNames = new Map(
  Object.values(report.testFiles ?? {}).flatMap((file) => file.tests.map((test) => [test.id, test.name])),
);
const firstKiller = (mutant) => testNames.get(mutant.killedBy[0]) ?? mutant.killedBy[0];
let worker = await startWorker(undefined);
const pattern = new RegExp(filter);
const ids = worker.ids.filter((id) => pattern.test(id));
let changed = 0;
for (const mutant of mutants) {
  const scenarios = kills ? ids.filter((id) => id !== firstKiller(mutant)) : ids;
  // A mutant active at load time (`static`: a module-level table, say) needs a process started with it
  // on; switching it in the shared worker would change nothing and count it as not killed.
  const runner = mutant.static ? await startWorker(String(mutant.id)) : worker;
  const done = await runOn(
    runner,
    { ids: scenarios, mutant: String(mutant.id), bail: 1, coverage: false },
    120_000,
  );
  if (mutant.static) runner.child.kill();
  else if (!done) worker = await startWorker(undefined);
  const failed = done ? done.tests.filter((test) => !test.pass).map((test) => test.id) : ['(timed out)'];
  const entry = kills
    ? {
        mutant: String(mutant.id),
        before: 'killed',
        after: 'killed',
        killers: [firstKiller(mutant), ...failed],
      }
    : {
        mutant: String(mutant.id),
        before: before.get(String(mutant.id)) ?? 'survived',
        after: failed.length > 0 ? 'killed' : 'survived',
      };
  if (failed.length > 0) changed += 1;
  appendFileSync(recheckLog, `${JSON.stringify(entry)}\n`);
}
worker.child.kill();
console.log(
  kills
    ? `[mutation-recheck] ${changed} of ${mutants.length} one-killer mutants also killed by another scenario of /${filter}/`
    : `[mutation-recheck] ${changed} of ${mutants.length} survivors killed by /${filter}/`,
);
