import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool } from './fixtures/call-github-tool.js';
import { githubHeaders, missingPermission } from './fixtures/github-responses.js';
import { missingGithubPermissions, missingOauthScope } from './github-permissions.js';

const issuesUrl = 'POST https://api.github.com/repos/octocat/Hello-World/issues';
const server = createTestServer();
const createIssue = () =>
  callGithubTool('github_create_issue', { owner: 'octocat', repo: 'Hello-World', title: 'Found a bug' });

// What GitHub sends on an endpoint many classic scopes can reach: a list of alternatives.
const manyAlternatives =
  'admin:org, admin:repo_hook, delete_repo, public_repo, repo, repo:status, user, write:org';
const refusal = (headers: Record<string, string>) => ({
  status: 403,
  headers: githubHeaders(headers),
  body: { message: 'Resource not accessible by personal access token', status: '403' },
});

describe('GitHub permission headers', () => {
  it('treats X-Accepted-OAuth-Scopes as alternatives: a token holding one is missing none', async () => {
    server.use({
      [issuesUrl]: refusal({ 'x-oauth-scopes': 'public_repo', 'x-accepted-oauth-scopes': manyAlternatives }),
    });
    const envelope = await createIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'permission_denied' });
    expect(envelope).not.toHaveProperty('missing_scopes');
    expect(JSON.stringify(envelope)).not.toContain('delete_repo');
  });

  it('names the one least powerful accepted scope when the token holds none of them', async () => {
    server.use({
      [issuesUrl]: refusal({ 'x-oauth-scopes': 'read:user', 'x-accepted-oauth-scopes': 'repo, public_repo' }),
    });
    expect(await createIssue()).toMatchObject({
      error_type: 'permission_denied',
      missing_scopes: ['public_repo'],
    });
  });

  it('counts a scope the granted ones imply as held (repo covers public_repo)', () => {
    expect(missingOauthScope('public_repo', 'repo')).toEqual({ satisfied: true });
    expect(missingOauthScope(manyAlternatives, 'read:user')).toEqual({
      satisfied: false,
      missing: 'public_repo',
    });
    expect(missingOauthScope('delete_repo, admin:org, repo', '')).toEqual({
      satisfied: false,
      missing: 'repo',
    });
  });

  it('names the permission a fine-grained token lacks from X-Accepted-GitHub-Permissions', async () => {
    server.use({ [issuesUrl]: missingPermission });
    const envelope = await createIssue();
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['issues=write'],
      setup_url: 'https://github.com/settings/tokens',
    });
    expect((envelope as { user_message: string }).user_message).toContain('issues=write');
  });

  it('picks the smallest set of permissions GitHub accepts, every permission of the set', () => {
    expect(missingGithubPermissions('issues=write')).toEqual(['issues=write']);
    expect(missingGithubPermissions('repository_projects=write; organization_projects=admin')).toEqual([
      'repository_projects=write',
    ]);
    expect(missingGithubPermissions('contents=write,pull_requests=write; administration=admin')).toEqual([
      'administration=admin',
    ]);
    expect(missingGithubPermissions(null)).toBeUndefined();
  });
});
