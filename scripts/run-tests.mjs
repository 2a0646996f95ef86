#!/usr/bin/env node
// Runs the workspace test suites through turbo and prints one closing line, "N passed, N failed",
// summing the suites that were asked to run (plus the last eval run when it was among them). A suite
// asked to run that crashed before reporting counts as one failure, so nothing is silently lost;
// a suite a --filter left out is not counted at all (it did not run, it did not fail).
//
// The closing line is the last line of `pnpm test`: this script exits 0 once it has printed it,
// because pnpm prints "[ELIFECYCLE] Test failed." after any script that exits non-zero. Callers
// decide by the line (`.ci/run` does); pass --exit-code to also exit 1 when something failed.
// --summary-only skips running and counts the result files the last run left. Arguments turbo
// refuses, or a selection with no suite in it, print why and exit 2 with no summary line.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { selectedSuites, summarize, summaryLine } from './test-summary.mjs';
import { workspacePackages } from './workspace.mjs';

const root = new URL('..', import.meta.url).pathname;
const resultFileName = '.vitest-result.json';
const ownFlags = new Set(['--exit-code', '--summary-only']);
// `pnpm test -- --exit-code` passes the "--" through; it means nothing here.
const argv = process.argv.slice(2).filter((argument, index) => !(index === 0 && argument === '--'));

/** What `pnpm test -- --help` prints (and nothing else: no suite runs, no count). */
const usage = `pnpm test [-- options]: runs the test suites through turbo, then prints one line "N passed, N failed"

  pnpm test                                   every suite, and the last pnpm eval's counts
  pnpm test -- --filter @patchbay/envelope    one package's suite, counted alone
  pnpm test -- --filter './connectors/*'      the suites turbo's --filter selects (names, globs, directories)

Options:
  --exit-code      also exit 1 when something failed (by default the summary line is the last line and the exit is 0)
  --summary-only   count the result files the last run left, without running anything
  --help, -h       this text
Any other option goes to \`turbo run test\` (\`pnpm exec turbo run --help\` lists them).
In one package, \`pnpm vitest run <file>\` runs one test file.`;

if (argv.includes('--help') || argv.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
const exitCode = argv.includes('--exit-code');
const summaryOnly = argv.includes('--summary-only');
const turboArgs = argv.filter((argument) => !ownFlags.has(argument));
const turboEnv = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const turbo = (args, stdio) =>
  spawnSync('pnpm', ['exec', 'turbo', 'run', 'test', ...args], { cwd: root, stdio, env: turboEnv });

// Flags under which turbo reports instead of running: pass them through and count nothing.
if (turboArgs.some((argument) => /^--(dry(-run)?|graph)(=|$)/.test(argument))) {
  process.exit(turbo(turboArgs, 'inherit').status ?? 1);
}

const allSuites = workspacePackages(root)
  .filter((pkg) => pkg.manifest.scripts?.test)
  .map((pkg) => ({ name: pkg.manifest.name, dir: pkg.dir, resultFile: join(pkg.dir, resultFileName) }));

// Without arguments every suite runs. With some (a --filter), turbo's own dry run says which test
// tasks they select: its filter syntax is turbo's, so only turbo can answer exactly.
let suites = allSuites;
if (turboArgs.length > 0) {
  const dryRun = turbo([...turboArgs, '--dry-run=json'], ['ignore', 'pipe', 'inherit']);
  if (dryRun.status !== 0) {
    console.error(
      `pnpm test: turbo refused ${turboArgs.join(' ')} (above); nothing ran. See pnpm test -- --help.`,
    );
    process.exit(2);
  }
  suites = selectedSuites(allSuites, JSON.parse(dryRun.stdout.toString()));
  if (suites.length === 0) {
    console.error(`pnpm test: ${turboArgs.join(' ')} selects no package with tests; nothing ran.`);
    process.exit(2);
  }
}
// The last `pnpm eval` is counted with the evals package's suite, so a filter that leaves that out
// leaves it out too.
const evalSummaryFile = suites.some((suite) => suite.name === '@patchbay/evals')
  ? join(root, 'evals/results/summary.json')
  : undefined;

let turboStatus = 0;
if (!summaryOnly) {
  for (const suite of suites) rmSync(suite.resultFile, { force: true });
  const run = turbo(['--continue', '--concurrency=2', '--output-logs=new-only', ...turboArgs], 'inherit');
  turboStatus = run.status ?? 1;
}

const total = summarize(suites, evalSummaryFile);
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
