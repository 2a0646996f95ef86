import { HttpError } from '@patchbay/envelope';
import { callConnectorTool, createTestServer, type ResponseSpec } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { graphqlErrors, graphqlHeaders, linearFailures } from './fixtures/linear-responses.js';
import { linear } from './linear-connector.js';
import { graphqlError } from './linear-errors.js';

const endpoint = 'POST https://api.linear.app/graphql';
const server = createTestServer();
const credentials = { api_key: 'lin_api_test0000000000000000000000' };
const callWith = async (
  response: ResponseSpec,
  tool = 'linear_get_issue',
  input: unknown = { issue_id: 'ENG-1' },
) => {
  server.use({ [endpoint]: response });
  return callConnectorTool(linear, tool, input, { credentials });
};

describe('Linear error codes', () => {
  it.each([200, 400, 401])('AUTHENTICATION_ERROR with HTTP %i is invalid_credentials', async (status) => {
    await expect(callWith({ ...linearFailures().unauthorized, status })).resolves.toMatchObject({
      ok: false,
      error_type: 'invalid_credentials',
      setup_url: linear.setupUrl,
    });
  });

  it('FORBIDDEN is permission_denied naming the scope of the refused call', async () => {
    const envelope = await callWith(linearFailures().forbidden, 'linear_comment_on_issue', {
      issue_id: '8e6f5a0e-1b2c-4d3e-9f40-5a6b7c8d9e0f',
      body: 'x',
    });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['comments:create'],
    });
  });

  it('"Entity not found" is not_found with Linear’s sentence', async () => {
    const envelope = await callWith(linearFailures().not_found);
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found' });
    expect(envelope.ok === false && envelope.user_message).toContain('Could not find referenced Issue.');
  });

  it('other INVALID_INPUT is invalid_arguments with the user-presentable message', async () => {
    const envelope = await callWith({
      status: 400,
      body: graphqlErrors(
        'INVALID_INPUT',
        'invalid input',
        'Argument Validation Error',
        'Title is too long.',
      ),
    });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(envelope.ok === false && envelope.user_message).toContain('Title is too long.');
  });

  it('RATELIMITED waits until the exhausted budget resets', () => {
    const now = new Date('2026-11-21T15:00:00Z');
    const error = graphqlError(
      400,
      new Headers({
        'x-ratelimit-requests-remaining': '12',
        'x-ratelimit-requests-reset': String(now.getTime() + 5_000),
        'x-ratelimit-complexity-remaining': '0',
        'x-ratelimit-complexity-reset': String(now.getTime() + 61_500),
      }),
      graphqlErrors('RATELIMITED', 'ratelimited', 'Rate limit exceeded'),
      [],
      now,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error?.status).toBe(429);
    expect(error?.headers.get('retry-after')).toBe('62');
  });

  it('RATELIMITED becomes rate_limited with retry_after_s', async () => {
    const envelope = await callWith(linearFailures().rate_limited);
    expect(envelope).toMatchObject({ ok: false, error_type: 'rate_limited', retryable: true });
    expect(envelope.ok === false && envelope.retry_after_s).toBeGreaterThan(0);
  });

  it('USAGE_LIMIT_EXCEEDED is a non-retryable refusal, not a rate limit', async () => {
    const envelope = await callWith({
      body: graphqlErrors(
        'USAGE_LIMIT_EXCEEDED',
        'usage limit exceeded',
        'Usage limit exceeded',
        'Upgrade to create more issues.',
      ),
    });
    expect(envelope).toMatchObject({ ok: false, error_type: 'upstream_error', retryable: false });
  });

  it('reads the code from extensions.type when extensions.code is absent', async () => {
    const envelope = await callWith({
      body: { errors: [{ message: 'not authenticated', extensions: { type: 'authentication error' } }] },
    });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_credentials' });
  });

  it('an HTTP 200 without data is an upstream failure', async () => {
    await expect(callWith({ headers: graphqlHeaders, body: {} })).resolves.toMatchObject({
      ok: false,
      error_type: 'upstream_error',
    });
  });

  it('a plain HTTP failure without GraphQL errors keeps its status', () => {
    expect(graphqlError(502, new Headers(), 'Bad gateway', [])).toBeUndefined();
  });
});
