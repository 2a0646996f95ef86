import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { jiraFailures, jsonHeaders, myself, scopeMismatch } from './fixtures/jira-responses.js';
import { createJira, jira as unconfigured } from './jira-connector.js';

const site = 'https://acme.atlassian.net';
const myselfUrl = `GET ${site}/rest/api/3/myself`;
const server = createTestServer({ [myselfUrl]: { headers: jsonHeaders, body: myself } });
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };

describe('jira verify', () => {
  it('accepts valid credentials, names the account and reports the declared scopes', async () => {
    await expect(jira.verify(credentials)).resolves.toEqual({
      valid: true,
      scopes: ['read:jira-work', 'write:jira-work', 'read:jira-user'],
      identity: 'Mia Krystof',
    });
    expect(server.calls[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('mia@acme.example:ATATT3xFfGF0-test-token').toString('base64')}`,
    );
  });

  it('reports a revoked token (401 with the login filter header) as invalid credentials', async () => {
    server.use({ [myselfUrl]: jiraFailures.unauthorized });
    await expect(jira.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('treats an anonymous 200 after a refused login as invalid credentials', async () => {
    server.use({
      [myselfUrl]: { headers: { ...jsonHeaders, 'x-seraph-loginreason': 'AUTHENTICATED_FAILED' }, body: {} },
    });
    await expect(jira.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('reports a CAPTCHA lock (403 AUTHENTICATION_DENIED) as invalid credentials with the way out', async () => {
    server.use({
      [myselfUrl]: { status: 403, headers: { 'x-seraph-loginreason': 'AUTHENTICATION_DENIED' }, text: '' },
    });
    const result = await jira.verify(credentials);
    expect(result).toMatchObject({ valid: false, reason: 'invalid_credentials' });
  });

  it('keeps a scoped token that may not read profiles, without read:jira-user', async () => {
    server.use({ [myselfUrl]: scopeMismatch });
    await expect(jira.verify(credentials)).resolves.toEqual({
      valid: true,
      scopes: ['read:jira-work', 'write:jira-work'],
    });
  });

  it('reports rate limiting with the wait taken from Retry-After', async () => {
    server.use({ [myselfUrl]: { status: 429, headers: { 'retry-after': '17' }, text: '' } });
    await expect(jira.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'rate_limited',
      retryAfterS: 17,
    });
  });

  it('says what is missing, without a request, when no site or no email is configured', async () => {
    await expect(unconfigured.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'unreachable',
      message: expect.stringContaining('baseUrl'),
    });
    await expect(jira.verify({ api_token: 'ATATT3xFfGF0-test-token' })).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
    expect(server.calls).toHaveLength(0);
  });
});
