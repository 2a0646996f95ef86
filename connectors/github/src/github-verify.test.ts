import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { testToken } from './fixtures/call-github-tool.js';
import {
  authenticatedUser,
  badCredentials,
  githubHeaders,
  installationRepositories,
  notAccessibleByIntegration,
  primaryRateLimit,
} from './fixtures/github-responses.js';
import { createGithub, github } from './github-connector.js';

const userUrl = 'GET https://api.github.com/user';
const server = createTestServer();
const credentials = { token: testToken };

describe('github.verify', () => {
  it('reports the login and the granted scopes with the scopes they imply', async () => {
    server.use({
      [userUrl]: { headers: githubHeaders({ 'x-oauth-scopes': 'repo, read:org' }), body: authenticatedUser },
    });
    const result = await github.verify(credentials);
    expect(result).toEqual({
      valid: true,
      identity: 'octocat',
      scopes: [
        'public_repo',
        'read:org',
        'repo',
        'repo:invite',
        'repo:status',
        'repo_deployment',
        'security_events',
      ],
    });
    expect(server.calls[0]?.headers.authorization).toBe(`Bearer ${testToken}`);
    expect(server.calls[0]?.headers['x-github-api-version']).toBe('2022-11-28');
  });

  it('reports an insufficient classic token with exactly what it grants', async () => {
    server.use({
      [userUrl]: { headers: githubHeaders({ 'x-oauth-scopes': 'read:user' }), body: authenticatedUser },
    });
    await expect(github.verify(credentials)).resolves.toEqual({
      valid: true,
      identity: 'octocat',
      scopes: ['read:user'],
    });
  });

  it('reports no scopes for a classic token created without any', async () => {
    server.use({ [userUrl]: { headers: githubHeaders({ 'x-oauth-scopes': '' }), body: authenticatedUser } });
    await expect(github.verify(credentials)).resolves.toMatchObject({ valid: true, scopes: [] });
  });

  it('reports the declared scopes for a fine-grained token, which sends no x-oauth-scopes', async () => {
    const headers = githubHeaders();
    delete headers['x-oauth-scopes'];
    delete headers['x-accepted-oauth-scopes'];
    server.use({ [userUrl]: { headers, body: authenticatedUser } });
    await expect(github.verify({ token: 'github_pat_11AAAAAAA0000000000000' })).resolves.toEqual({
      valid: true,
      identity: 'octocat',
      scopes: ['repo', 'public_repo'],
    });
  });

  it('reports a revoked token as invalid_credentials without the token', async () => {
    server.use({ [userUrl]: badCredentials });
    const result = await github.verify(credentials);
    expect(result).toMatchObject({ valid: false, reason: 'invalid_credentials' });
    expect(JSON.stringify(result)).not.toContain(testToken);
  });

  it('reports a rate limit with the wait instead of calling the token invalid', async () => {
    server.use({ [userUrl]: primaryRateLimit(30) });
    const result = await github.verify(credentials);
    expect(result).toMatchObject({ valid: false, reason: 'rate_limited' });
    expect((result as { retryAfterS?: number }).retryAfterS).toBeGreaterThan(0);
  });

  it('verifies against GitHub Enterprise Server', async () => {
    server.use({
      'GET https://ghe.example.com/api/v3/user': {
        headers: githubHeaders({ 'x-oauth-scopes': 'public_repo' }),
        body: authenticatedUser,
      },
    });
    await expect(
      createGithub({ baseUrl: 'https://ghe.example.com/api/v3/' }).verify(credentials),
    ).resolves.toEqual({
      valid: true,
      identity: 'octocat',
      scopes: ['public_repo'],
    });
  });
});

describe('github.verify with a GitHub App installation token', () => {
  const installationToken = { token: 'ghs_16C7e42F292c6912E7710c838347Ae178B4a' };

  it('verifies through GET /installation/repositories when GET /user is not for integrations', async () => {
    server.use({
      [userUrl]: notAccessibleByIntegration,
      'GET https://api.github.com/installation/repositories': {
        headers: githubHeaders(),
        body: installationRepositories,
      },
    });
    await expect(github.verify(installationToken)).resolves.toEqual({
      valid: true,
      scopes: ['repo', 'public_repo'],
      identity: 'GitHub App installation on octocat (3 repositories)',
    });
    expect(server.calls.map((call) => call.url)).toEqual([
      'https://api.github.com/user',
      'https://api.github.com/installation/repositories?per_page=1',
    ]);
  });

  it('reports an expired installation token as invalid_credentials', async () => {
    server.use({
      [userUrl]: badCredentials,
      'GET https://api.github.com/installation/repositories': badCredentials,
    });
    await expect(github.verify(installationToken)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });
});
