import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface JsonAssertion {
  title: string;
  status: string;
  failureMessages: string[];
}
interface JsonReport {
  testResults: { name: string; assertionResults: JsonAssertion[] }[];
}

const packageRoot = resolve(import.meta.dirname, '..');

/**
 * The child vitest run over the broken fixtures: ~4 s quiet, measured up to 15 s with both cores busy
 * and another suite running. 150 s for the child and the hook alike, so only a hang fails it.
 */
const childRunTimeoutMs = 150_000;
let report: JsonReport;
let workDirectory: string;

/** Failed test titles, their messages and the number passed, for one fixture file of the child run. */
function outcome(fixture: string): { failed: string[]; passed: number; messages: string[] } {
  const file = report.testResults.find((result) => result.name.endsWith(`/test-fixtures/${fixture}`));
  if (!file) throw new Error(`the child run has no result for ${fixture}`);
  const failed = file.assertionResults.filter((test) => test.status === 'failed');
  return {
    failed: failed.map((test) => test.title).sort(),
    passed: file.assertionResults.filter((test) => test.status === 'passed').length,
    messages: failed.flatMap((test) => test.failureMessages),
  };
}

// The suite runs against deliberately broken connectors in a child vitest process, so their
// failures are observed here instead of failing this package's own run.
beforeAll(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'patchbay-conformance-'));
  const outputFile = join(workDirectory, 'report.json');
  await new Promise<void>((done) => {
    execFile(
      join(packageRoot, 'node_modules/.bin/vitest'),
      ['run', '--config', 'test-fixtures/vitest.config.ts', '--reporter=json', `--outputFile=${outputFile}`],
      { cwd: packageRoot, env: { ...process.env, CI: '1' }, timeout: childRunTimeoutMs },
      // A non-zero exit is the expected outcome: the broken connectors fail.
      () => done(),
    );
  });
  report = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
}, childRunTimeoutMs);

afterAll(async () => {
  if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
});

describe('createTestServer in a real run', () => {
  it('fails a test whose code swallowed the error of an unhandled request', () => {
    const { failed, passed, messages } = outcome('unhandled-request.fixture.ts');
    expect(failed).toEqual(['swallows the failure of an unhandled request']);
    expect(passed).toBe(1);
    expect(messages.join('\n')).toMatch(/Unhandled request .*GET https:\/\/api\.example\.test\/unknown/);
  });
});

describe('the conformance suite catches a broken connector', () => {
  it('whose tool leaks a fragment of the token into its result', () => {
    const { failed, passed, messages } = outcome('leaky-token.fixture.ts');
    expect(failed).toEqual([
      'example_get_item: keeps credentials out of envelopes, even when responses echo them',
      'no envelope or verify result produced by this suite contains a credential',
    ]);
    expect(passed).toBeGreaterThan(30);
    // The report says where the credential was found, without printing it.
    expect(messages.join('\n')).toMatch(/user_message: credential found as text/);
    expect(messages.join('\n')).not.toMatch(/pbcanary[0-9a-f]{24}/);
  });

  it('whose tool maps 401 to the wrong envelope', () => {
    const { failed } = outcome('wrong-401.fixture.ts');
    expect(failed).toEqual(['example_get_item: unauthorized (HTTP 401) maps to invalid_credentials']);
  });

  it('whose tool publishes an input field without a description', () => {
    const { failed } = outcome('undescribed-field.fixture.ts');
    expect(failed).toEqual(['example_get_item: describes every input field']);
  });

  it('that gives no sample input for a tool, so its failure mapping goes untested', () => {
    const { failed } = outcome('missing-sample.fixture.ts');
    expect(failed).toEqual(
      [
        'example_delete_item: has a sample input that validates',
        'example_delete_item: unauthorized (HTTP 401) maps to invalid_credentials',
        'example_delete_item: forbidden (HTTP 403) maps to permission_denied',
        'example_delete_item: not_found (HTTP 404) maps to not_found',
        'example_delete_item: rate_limited (HTTP 429) maps to rate_limited',
        'example_delete_item: server_error (HTTP 500) maps to upstream_error',
        'example_delete_item: a network failure maps to network_error',
      ].sort(),
    );
  });

  it('whose verify throws on a network failure', () => {
    const { failed } = outcome('verify-throws.fixture.ts');
    expect(failed).toEqual(['reports unreachable on a network failure without throwing']);
  });
});
