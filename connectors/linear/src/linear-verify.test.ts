import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { graphqlErrors, graphqlHeaders, linearFailures, viewer } from './fixtures/linear-responses.js';
import { linear } from './linear-connector.js';

const endpoint = 'POST https://api.linear.app/graphql';
const server = createTestServer({ [endpoint]: { headers: graphqlHeaders, body: viewer } });
const credentials = { api_key: 'lin_api_test0000000000000000000000' };

describe('linear verify', () => {
  it('accepts a valid key with the viewer query and reports the declared scopes', async () => {
    await expect(linear.verify(credentials)).resolves.toEqual({
      valid: true,
      scopes: ['read', 'write', 'issues:create', 'comments:create'],
      identity: 'Ada Lovelace (Acme)',
    });
    expect(server.calls[0]?.headers.authorization).toBe(credentials.api_key);
    expect((server.calls[0]?.body as { query?: string } | undefined)?.query).toMatch(
      /viewer\s*\{\s*id name email\s*\}/,
    );
  });

  it('reports a revoked key (AUTHENTICATION_ERROR with HTTP 401) as invalid credentials', async () => {
    server.use({ [endpoint]: { ...linearFailures().unauthorized, status: 401 } });
    await expect(linear.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('reports a revoked key sent back with HTTP 200 as invalid credentials too', async () => {
    server.use({ [endpoint]: { ...linearFailures().unauthorized, status: 200 } });
    await expect(linear.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('reports a key without the Read permission (FORBIDDEN) as unusable, saying which permission', async () => {
    server.use({ [endpoint]: linearFailures().forbidden });
    await expect(linear.verify(credentials)).resolves.toEqual({
      valid: false,
      reason: 'invalid_credentials',
      message: 'This Linear key may not read the workspace; create a key with the Read permission.',
    });
  });

  it('reports RATELIMITED with the wait from the reset header', async () => {
    server.use({ [endpoint]: linearFailures().rate_limited });
    const result = await linear.verify(credentials);
    expect(result).toMatchObject({ valid: false, reason: 'rate_limited' });
    expect(result.valid === false && result.retryAfterS).toBeGreaterThan(0);
  });

  it('reports an empty key without a request', async () => {
    await expect(linear.verify({ api_key: ' ' })).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
    expect(server.calls).toHaveLength(0);
  });

  it('reports an internal error as unreachable, not as bad credentials', async () => {
    server.use({ [endpoint]: { body: graphqlErrors('INTERNAL_ERROR', 'internal error', 'boom') } });
    await expect(linear.verify(credentials)).resolves.toMatchObject({ valid: false, reason: 'unreachable' });
  });
});
