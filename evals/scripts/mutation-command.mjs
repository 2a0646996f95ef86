#!/usr/bin/env node
// Stryker's command for `pnpm mutate:eval`: the eval suite once per mutant, measuring two suites in
// one run. First the scenarios that existed before a set of new ones (`--skip` the new ids), stopping
// at the first failure; if they all pass, the new scenarios. Each mutant's verdict for both suites is
// appended to a JSON-lines log (`PATCHBAY_MUTATE_LOG`), so one Stryker run gives the score before and
// after the new scenarios (`node evals/scripts/mutation-summary.mjs <json> <log>`). The exit code is
// the whole suite's: 0 when every scenario passed (the mutant survived), 1 when one failed.
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The ids of the scenarios added after the "before" measurement: `PATCHBAY_MUTATE_NEW` (a regex), by
 * default those of evals/scenarios/21-*, 22-* (the round of the whole-file run).
 */
const newScenarioIds =
  process.env.PATCHBAY_MUTATE_NEW ??
  '^(mcp-tool-hangs-times-out|mcp-server-down-unavailable|mcp-result-carries-credential|tool-result-carries-credential|memory-carries-fact-to-next-session|memory-down-still-answers|memory-context-is-data|adversary-broken-arguments|adversary-second-write-other-arguments|adversary-extra-write-in-retry|needs-input-ask-at-once|adversary-invented-value-with-two-questions)$';

const checkScenarios = fileURLToPath(new URL('./check-scenarios.mjs', import.meta.url));
const run = (...args) =>
  spawnSync(process.execPath, [checkScenarios, '--bail', '--quiet', ...args], { stdio: 'inherit' }).status;

const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
const before = run('--skip', newScenarioIds) === 0 ? 'survived' : 'killed';
const after = before === 'killed' ? 'killed' : run('--filter', newScenarioIds) === 0 ? 'survived' : 'killed';
if (mutant !== undefined && process.env.PATCHBAY_MUTATE_LOG)
  appendFileSync(process.env.PATCHBAY_MUTATE_LOG, `${JSON.stringify({ mutant, before, after })}\n`);
process.exit(after === 'survived' ? 0 : 1);
