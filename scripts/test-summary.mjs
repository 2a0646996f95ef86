// Counts vitest JSON reports into one "N passed, N failed" line. Used by run-tests.mjs (and its test):
// a failed test is one failure, and a file that failed outside its tests (it did not load, a hook threw)
// is one failure, never one per describe block as vitest's numFailedTestSuites would give.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** The closing line's exact shape; `.ci/run` parses it. */
export const summaryLinePattern = /^(\d+) passed, (\d+) failed$/;

/**
 * Counts one vitest JSON report (`--reporter=json`).
 * @param {{ testResults?: { name: string, status: string, message?: string,
 *   assertionResults: { fullName: string, status: string }[] }[] }} report
 * @param {string} [base] directory file names are shown relative to
 * @returns {{ passed: number, failed: number, failures: string[], skipped: string[] }}
 */
export function countReport(report, base = '') {
  const counts = { passed: 0, failed: 0, failures: [], skipped: [] };
  for (const file of report.testResults ?? []) {
    const fileName = base ? relative(base, file.name) : file.name;
    let failedTests = 0;
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') counts.passed += 1;
      else if (test.status === 'failed') {
        failedTests += 1;
        counts.failures.push(`${fileName} > ${test.fullName}`);
      } else counts.skipped.push(`${fileName} > ${test.fullName} (${test.status})`);
    }
    counts.failed += failedTests;
    // Failed with no failed test: it did not load, or a beforeAll/afterAll threw. One failure.
    if (file.status === 'failed' && failedTests === 0) {
      counts.failed += 1;
      const reason = (file.message ?? '').split('\n')[0] || 'failed outside its tests (a hook threw?)';
      counts.failures.push(`${fileName}: ${reason}`);
    }
  }
  return counts;
}

/**
 * Sums the result file of every suite and the last eval summary, if any.
 * @param {{ name: string, resultFile: string, dir: string }[]} suites
 * @param {string} [evalSummaryFile] evals/results/summary.json ({ passed, failed })
 */
export function summarize(suites, evalSummaryFile) {
  const total = { passed: 0, failed: 0, failures: [], skipped: [], rows: [] };
  const add = (name, counts) => {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.failures.push(...counts.failures.map((failure) => `${name}: ${failure}`));
    total.skipped.push(...counts.skipped.map((skipped) => `${name}: ${skipped}`));
    const skippedText = counts.skipped.length ? `, ${counts.skipped.length} skipped` : '';
    total.rows.push([name, `${counts.passed} passed, ${counts.failed} failed${skippedText}`]);
  };
  for (const suite of suites) {
    if (!existsSync(suite.resultFile)) {
      add(suite.name, {
        passed: 0,
        failed: 1,
        failures: ['no result (crashed before reporting)'],
        skipped: [],
      });
      continue;
    }
    let report;
    try {
      report = JSON.parse(readFileSync(suite.resultFile, 'utf8'));
    } catch {
      add(suite.name, { passed: 0, failed: 1, failures: ['result file is not JSON'], skipped: [] });
      continue;
    }
    add(suite.name, countReport(report, suite.dir));
  }
  if (evalSummaryFile && existsSync(evalSummaryFile)) {
    const summary = JSON.parse(readFileSync(evalSummaryFile, 'utf8'));
    const failures = summary.failed > 0 ? ['see evals/results/report.html'] : [];
    add('evals (last pnpm eval)', { passed: summary.passed, failed: summary.failed, failures, skipped: [] });
  }
  return total;
}

/**
 * The suites a turbo dry run (`turbo run test … --dry-run=json`) would run: those with a `test` task
 * in it. Build tasks a filter pulls in as dependencies select nothing.
 * @template {{ name: string }} Suite
 * @param {Suite[]} suites every suite of the workspace
 * @param {{ tasks?: { package?: string, task?: string, taskId?: string }[] }} dryRun
 * @returns {Suite[]}
 */
export function selectedSuites(suites, dryRun) {
  const testing = new Set(
    (dryRun.tasks ?? [])
      .map((task) => task.taskId ?? `${task.package}#${task.task}`)
      .filter((taskId) => taskId.endsWith('#test'))
      .map((taskId) => taskId.slice(0, -'#test'.length)),
  );
  return suites.filter((suite) => testing.has(suite.name));
}

/** The closing line. */
export function summaryLine({ passed, failed }) {
  return `${passed} passed, ${failed} failed`;
}
