#!/usr/bin/env node
// Runs every workspace test suite through turbo and prints one closing line, "N passed, N failed",
// summing all suites (plus the last eval run when present). A suite that crashed before reporting
// counts as one failure, so nothing is silently lost.
//
// The closing line is the last line of `pnpm test`: this script exits 0 once it has printed it,
// because pnpm prints "[ELIFECYCLE] Test failed." after any script that exits non-zero. Callers
// decide by the line (`.ci/run` does); pass --exit-code to also exit 1 when something failed.
// --summary-only skips running and counts the result files the last run left.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { summarize, summaryLine } from './test-summary.mjs';
import { workspacePackages } from './workspace.mjs';

const root = new URL('..', import.meta.url).pathname;
const resultFileName = '.vitest-result.json';
const ownFlags = new Set(['--exit-code', '--summary-only']);
// `pnpm test -- --exit-code` passes the "--" through; it means nothing here.
const argv = process.argv.slice(2).filter((argument, index) => !(index === 0 && argument === '--'));
const exitCode = argv.includes('--exit-code');
const summaryOnly = argv.includes('--summary-only');
const turboArgs = argv.filter((argument) => !ownFlags.has(argument));

const suites = workspacePackages(root)
  .filter((pkg) => pkg.manifest.scripts?.test)
  .map((pkg) => ({ name: pkg.manifest.name, dir: pkg.dir, resultFile: join(pkg.dir, resultFileName) }));

let turboStatus = 0;
if (!summaryOnly) {
  for (const suite of suites) rmSync(suite.resultFile, { force: true });
  const run = spawnSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'test', '--continue', '--concurrency=2', '--output-logs=new-only', ...turboArgs],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  turboStatus = run.status ?? 1;
}

const total = summarize(suites, join(root, 'evals/results/summary.json'));
// turbo itself failed (e.g. a build) while every suite reported green: never report green.
if (turboStatus !== 0 && total.failed === 0) {
  total.failed = 1;
  total.failures.push(`turbo exited with ${turboStatus} (a build or a task outside the suites failed)`);
}

const width = Math.max(...total.rows.map(([name]) => name.length), 10);
console.log('\nSuites:');
for (const [name, text] of total.rows) console.log(`  ${name.padEnd(width)}  ${text}`);
if (total.skipped.length) {
  console.log(`Skipped (${total.skipped.length}):`);
  for (const skipped of total.skipped) console.log(`  ${skipped}`);
}
if (total.failures.length) {
  console.log(`Failed (${total.failed}):`);
  for (const failure of total.failures) console.log(`  ${failure}`);
}
console.log(summaryLine(total));
process.exitCode = exitCode && total.failed > 0 ? 1 : 0;
