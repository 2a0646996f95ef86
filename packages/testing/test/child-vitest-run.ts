import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface JsonAssertion {
  title: string;
  ancestorTitles: string[];
  status: string;
  failureMessages: string[];
}

interface JsonReport {
  testResults: { name: string; assertionResults: JsonAssertion[] }[];
}

/** What one fixture file of a child run did. */
export interface FixtureOutcome {
  /** Titles of its failed tests, sorted. */
  failed: string[];
  /** How many of its tests passed. */
  passed: number;
  /** Titles of its passed tests, sorted. */
  passedTitles: string[];
  /** Every test it ran, failed or not, as its outermost `describe` title and its own title. */
  cases: { suite: string; title: string }[];
  /** How many of its tests were skipped. */
  skipped: number;
  /** Failure messages of its failed tests. */
  messages: string[];
}

const packageRoot = resolve(import.meta.dirname, '..');

/**
 * Time for one child vitest run over fixtures: ~4 s quiet, measured up to 15 s with both cores busy
 * and another suite running. 150 s for the child and the hook that awaits it alike, so only a hang
 * fails it.
 */
export const childRunTimeoutMs = 150_000;

/**
 * Runs vitest in a child process with the given config (relative to the package) and reads its
 * JSON report. Fixture files that are broken on purpose fail there, where their failures are
 * observed, instead of failing the package's own run.
 */
export async function runChildVitest(config: string): Promise<(fixture: string) => FixtureOutcome> {
  const workDirectory = await mkdtemp(join(tmpdir(), 'patchbay-child-vitest-'));
  try {
    const outputFile = join(workDirectory, 'report.json');
    await new Promise<void>((done) => {
      execFile(
        join(packageRoot, 'node_modules/.bin/vitest'),
        ['run', '--config', config, '--reporter=json', `--outputFile=${outputFile}`],
        { cwd: packageRoot, env: { ...process.env, CI: '1' }, timeout: childRunTimeoutMs },
        // A non-zero exit is the expected outcome: the broken fixtures fail.
        () => done(),
      );
    });
    const report = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    return (fixture) => {
      const file = report.testResults.find((result) => result.name.endsWith(`/${fixture}`));
      if (!file) throw new Error(`the child run has no result for ${fixture}`);
      const count = (status: string) => file.assertionResults.filter((test) => test.status === status);
      return {
        failed: count('failed')
          .map((test) => test.title)
          .sort(),
        passed: count('passed').length,
        passedTitles: count('passed')
          .map((test) => test.title)
          .sort(),
        cases: file.assertionResults.map((test) => ({
          suite: test.ancestorTitles[0] ?? '',
          title: test.title,
        })),
        skipped: count('skipped').length,
        messages: count('failed').flatMap((test) => test.failureMessages),
      };
    };
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
  }
}
