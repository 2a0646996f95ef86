import { beforeAll, describe, expect, it } from 'vitest';
import { childRunTimeoutMs, type FixtureOutcome, runChildVitest } from '../test/child-vitest-run.js';

let outcome: (fixture: string) => FixtureOutcome;

// The suite runs against deliberately broken connectors in a child vitest process, so their
// failures are observed here instead of failing this package's own run.
beforeAll(async () => {
  outcome = await runChildVitest('test-fixtures/vitest.config.ts');
}, childRunTimeoutMs);

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
