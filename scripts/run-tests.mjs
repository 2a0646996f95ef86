#!/usr/bin/env node
// Runs every workspace test suite through turbo and prints one closing line,
// "N passed, N failed", summing all suites (plus the last eval run when present).
// A suite that crashed before reporting counts as one failure, so nothing is silently lost.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { workspacePackages } from './workspace.mjs';

const root = new URL('..', import.meta.url).pathname;
const resultFile = '.vitest-result.json';
const suites = workspacePackages(root).filter((pkg) => pkg.manifest.scripts?.test);

for (const suite of suites) rmSync(join(suite.dir, resultFile), { force: true });

const extraArgs = process.argv.slice(2);
const run = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'test', '--continue', '--concurrency=2', '--output-logs=new-only', ...extraArgs],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  },
);

let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
for (const suite of suites) {
  const file = join(suite.dir, resultFile);
  if (!existsSync(file)) {
    failed += 1;
    rows.push([suite.manifest.name, 'no result (crashed before reporting)']);
    continue;
  }
  const result = JSON.parse(readFileSync(file, 'utf8'));
  const suiteFailed = result.numFailedTests + (result.numFailedTestSuites ?? 0);
  passed += result.numPassedTests;
  failed += suiteFailed;
  skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
  rows.push([suite.manifest.name, `${result.numPassedTests} passed, ${suiteFailed} failed`]);
}

const evalSummary = join(root, 'evals/results/summary.json');
if (existsSync(evalSummary)) {
  const summary = JSON.parse(readFileSync(evalSummary, 'utf8'));
  passed += summary.passed;
  failed += summary.failed;
  rows.push(['evals (last pnpm eval)', `${summary.passed} passed, ${summary.failed} failed`]);
}

const width = Math.max(...rows.map(([name]) => name.length), 10);
console.log('\nSuites:');
for (const [name, text] of rows) console.log(`  ${name.padEnd(width)}  ${text}`);
if (run.status !== 0 && failed === 0) failed = 1; // turbo itself failed (e.g. a build): never report green
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
