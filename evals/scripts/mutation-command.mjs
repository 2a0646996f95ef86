#!/usr/bin/env node
// Stryker's command for `pnpm mutate:eval`: the eval suite once per mutant, measuring two suites in
// one run. First the scenarios that existed before a set of new ones (`--skip` the new ids), stopping
// at the first failure; if they all pass, the new scenarios. Each mutant's verdict for both suites is
// appended to a JSON-lines log (`PATCHBAY_MUTATE_LOG`), so one Stryker run gives the score before and
// after the new scenarios (`node evals/scripts/mutation-summary.mjs <json> <log>`). The exit code is
// the whole suite's: 0 when every scenario passed (the mutant survived), 1 when one failed.
// With `PATCHBAY_MUTATE_KILLERS=1` every scenario runs, without stopping at the first failure, and the
// log also lists the scenarios that failed (`killers`): `mutation-summary.mjs` then names the mutants
// only one scenario kills. About ten times slower a mutant; for a measuring run, not every round.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Every scenario, no bail: the ids of those that failed. */
function killers() {
  const directory = mkdtempSync(join(tmpdir(), 'patchbay-killers-'));
  const file = join(directory, 'failed.json');
  try {
    spawnSync(process.execPath, [checkScenarios, '--quiet', '--failed-to', file], { stdio: 'inherit' });
    return JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
let entry;
if (process.env.PATCHBAY_MUTATE_KILLERS === '1') {
  const failed = killers();
  const isNew = new RegExp(newScenarioIds);
  const before = failed.some((id) => !isNew.test(id)) ? 'killed' : 'survived';
  entry = { mutant, before, after: failed.length > 0 ? 'killed' : 'survived', killers: failed };
} else {
  const before = run('--skip', newScenarioIds) === 0 ? 'survived' : 'killed';
  const after =
    before === 'killed' ? 'killed' : run('--filter', newScenarioIds) === 0 ? 'survived' : 'killed';
  entry = { mutant, before, after };
}
if (mutant !== undefined && process.env.PATCHBAY_MUTATE_LOG)
  appendFileSync(process.env.PATCHBAY_MUTATE_LOG, `${JSON.stringify(entry)}\n`);
process.exit(entry.after === 'survived' ? 0 : 1);
