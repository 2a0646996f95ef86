#!/usr/bin/env node
// The eval suite without promptfoo: every scenario through the same runner and checks of
// @patchbay/eval as `pnpm eval`, with the offline reference agent (or the scripted adversary a
// scenario names). Exits 1 when a scenario fails. `--bail` stops at the first failure: the mutation
// run (`pnpm mutate`) uses it as Stryker's command, where promptfoo's start-up (seconds per run) would
// multiply by every mutant. `--filter <regex>` as in `pnpm eval`; `--skip <regex>` leaves out the
// scenarios whose id matches. `--failed-to <file>` writes the ids of the failing scenarios there as a
// JSON list (the mutation run's count of the scenarios that kill each mutant).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalConfig, loadScenarios } from '@patchbay/eval';
import { reasonsOf, scenarioVerdict } from './scenario-verdict.mjs';

const config = await loadEvalConfig(join(import.meta.dirname, '..', 'patchbay-eval.config.mjs'));
const args = process.argv.slice(2);
const bail = args.includes('--bail');
const quiet = args.includes('--quiet');
const filterIndex = args.indexOf('--filter');
const skipIndex = args.indexOf('--skip');
const skip = skipIndex >= 0 ? new RegExp(args[skipIndex + 1]) : undefined;
const scenarios = loadScenarios(config, {
  filter: filterIndex >= 0 ? args[filterIndex + 1] : undefined,
}).filter((scenario) => !skip?.test(scenario.id));
const failedToIndex = args.indexOf('--failed-to');
const failedIds = [];
let failed = 0;
for (const scenario of scenarios) {
  const result = await scenarioVerdict(scenario, config);
  if (!result.pass) {
    failed += 1;
    failedIds.push(scenario.id);
  }
  if (!quiet || !result.pass)
    console.log(`${result.pass ? 'PASS' : 'FAIL'}  ${scenario.id}`, reasonsOf(result));
  if (failed && bail) break;
}
if (failedToIndex >= 0) writeFileSync(args[failedToIndex + 1], `${JSON.stringify(failedIds)}\n`);
console.log(
  `[eval:direct] ${failed === 0 ? 'all passed' : `${failed} failed`} (${scenarios.length} scenarios)`,
);
process.exit(failed === 0 ? 0 : 1);
