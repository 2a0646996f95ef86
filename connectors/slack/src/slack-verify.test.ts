import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { testToken } from './fixtures/call-slack-tool.js';
import { authTest, slackError, slackHeaders, slackRateLimited } from './fixtures/slack-responses.js';
import { createSlack, slack } from './slack-connector.js';

const authTestUrl = 'POST https://slack.com/api/auth.test';
const server = createTestServer();
const credentials = { token: testToken };

describe('slack.verify', () => {
  it('calls auth.test and reports the workspace and the scopes of x-oauth-scopes', async () => {
    server.use({
      [authTestUrl]: { headers: slackHeaders('chat:write,channels:read,channels:history'), body: authTest },
    });
    await expect(slack.verify(credentials)).resolves.toEqual({
      valid: true,
      scopes: ['channels:history', 'channels:read', 'chat:write'],
      identity: 'patchbay in Subarachnoid Workspace',
    });
    expect(server.calls[0]?.headers.authorization).toBe(`Bearer ${testToken}`);
  });

  it('reports a token with too few scopes as valid with exactly those scopes', async () => {
    server.use({ [authTestUrl]: { headers: slackHeaders('channels:read'), body: authTest } });
    await expect(slack.verify(credentials)).resolves.toMatchObject({
      valid: true,
      scopes: ['channels:read'],
    });
  });

  it('reports the declared scopes when no scope header comes back (e.g. through a proxy)', async () => {
    server.use({ 'POST https://slack-proxy.internal/api/auth.test': { body: authTest } });
    const result = await createSlack({ baseUrl: 'https://slack-proxy.internal/api' }).verify(credentials);
    expect(result).toMatchObject({ valid: true });
    expect((result as { scopes: string[] }).scopes).toEqual(slack.auth.scopes.map((scope) => scope.name));
  });

  it.each(['token_revoked', 'invalid_auth', 'account_inactive'])(
    'reports %s as invalid_credentials without the token',
    async (code) => {
      server.use({ [authTestUrl]: slackError(code) });
      const result = await slack.verify(credentials);
      expect(result).toMatchObject({ valid: false, reason: 'invalid_credentials' });
      expect(JSON.stringify(result)).not.toContain(testToken);
    },
  );

  it('reports a 429 as rate_limited with the wait', async () => {
    server.use({ [authTestUrl]: slackRateLimited(20) });
    await expect(slack.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'rate_limited',
      retryAfterS: 20,
    });
  });

  it('reports a Slack outage as unreachable rather than invalid', async () => {
    server.use({ [authTestUrl]: slackError('service_unavailable') });
    await expect(slack.verify(credentials)).resolves.toMatchObject({ valid: false, reason: 'unreachable' });
  });
});
