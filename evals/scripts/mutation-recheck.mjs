#!/usr/bin/env node
// Re-runs the survivors of a Stryker run against scenarios written after it started, on the same
// instrumented build (the packages' dist/ as Stryker built it: every mutant behind a switch; run this
// before rebuilding them). Each survivor gets `__STRYKER_ACTIVE_MUTANT__` and the given scenarios
// (`--filter` regex, as in check-scenarios); its verdict is appended to the log in the format of
// scripts/mutation-command.mjs, with `before` taken from the run's own log, so mutation-summary.mjs
// can merge it:
//   node evals/scripts/mutation-recheck.mjs evals/mutation/eval/mutation.json \
//     evals/mutation/eval/before-after.jsonl evals/mutation/eval/recheck.jsonl '<id regex>' ['<file regex>']
// The optional file regex limits the survivors to the files the new scenarios can reach.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [reportFile, runLog, recheckLog, filter, files = '.'] = process.argv.slice(2);
if (!filter)
  throw new Error('usage: mutation-recheck.mjs <mutation.json> <run log> <recheck log> <id regex>');
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const before = new Map(
  readFileSync(runLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .map((entry) => [String(entry.mutant), entry.before]),
);
const checkScenarios = fileURLToPath(new URL('./check-scenarios.mjs', import.meta.url));
const survivors = Object.entries(report.files)
  .filter(([file]) => new RegExp(files).test(file))
  .flatMap(([, file]) => file.mutants)
  .filter((mutant) => mutant.status === 'Survived');
let killed = 0;
for (const mutant of survivors) {
  const run = spawnSync(process.execPath, [checkScenarios, '--bail', '--quiet', '--filter', filter], {
    env: { ...process.env, __STRYKER_ACTIVE_MUTANT__: String(mutant.id) },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const after = run.status === 0 ? 'survived' : 'killed';
  if (after === 'killed') killed += 1;
  appendFileSync(
    recheckLog,
    `${JSON.stringify({ mutant: String(mutant.id), before: before.get(String(mutant.id)) ?? 'survived', after })}\n`,
  );
}
console.log(`[mutation-recheck] ${killed} of ${survivors.length} survivors killed by /${filter}/`);
