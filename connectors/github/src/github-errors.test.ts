import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool, testToken } from './fixtures/call-github-tool.js';
import {
  badCredentials,
  githubHeaders,
  issuesDisabled,
  missingScope,
  notFound,
  primaryRateLimit,
  secondaryRateLimit,
  validationFailed,
} from './fixtures/github-responses.js';

const issueUrl = 'https://api.github.com/repos/octocat/Hello-World/issues/1347';
const issuesUrl = 'https://api.github.com/repos/octocat/Hello-World/issues';
const server = createTestServer();
const getIssue = () =>
  callGithubTool('github_get_issue', { owner: 'octocat', repo: 'Hello-World', issue_number: 1347 });
const createIssue = () =>
  callGithubTool('github_create_issue', { owner: 'octocat', repo: 'Hello-World', title: 'Found a bug' });

describe('GitHub error signals', () => {
  it('maps 401 Bad credentials to invalid_credentials with the token settings page', async () => {
    server.use({ [`GET ${issueUrl}`]: badCredentials });
    expect(await getIssue()).toMatchObject({
      ok: false,
      error_type: 'invalid_credentials',
      connector: 'github',
      setup_url: 'https://github.com/settings/tokens',
    });
  });

  it('maps a 403 with x-ratelimit-remaining: 0 to rate_limited, waiting until x-ratelimit-reset', async () => {
    server.use({ [`GET ${issueUrl}`]: primaryRateLimit(120) });
    const envelope = await getIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'rate_limited', retryable: true });
    // The reset is an epoch second computed when the fixture was built, so allow for the clock moving.
    const wait = (envelope as { retry_after_s?: number }).retry_after_s ?? -1;
    expect(wait).toBeGreaterThan(100);
    expect(wait).toBeLessThanOrEqual(120);
  });

  it('maps a secondary rate limit with retry-after to rate_limited with that wait', async () => {
    server.use({ [`POST ${issuesUrl}`]: secondaryRateLimit(45) });
    expect(await createIssue()).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 45 });
  });

  it('waits GitHub’s documented minute on a secondary rate limit that names no wait', async () => {
    server.use({ [`POST ${issuesUrl}`]: secondaryRateLimit() });
    expect(await createIssue()).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 60 });
  });

  it('maps 429 with retry-after to rate_limited', async () => {
    server.use({ [`GET ${issueUrl}`]: { status: 429, headers: { 'retry-after': '12' }, body: {} } });
    expect(await getIssue()).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 12 });
  });

  it('names the missing scope from x-accepted-oauth-scopes on a 403', async () => {
    server.use({ [`POST ${issuesUrl}`]: missingScope });
    expect(await createIssue()).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['repo'],
      setup_url: 'https://github.com/settings/tokens',
    });
  });

  it('maps 404 to not_found without a scope hint when the token has repo', async () => {
    server.use({ [`GET ${issueUrl}`]: notFound });
    const envelope = await getIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found', retryable: false });
    expect((envelope as { user_message: string }).user_message).not.toContain('repo scope');
  });

  it('hints at the repo scope on a 404 for a token without it (GitHub hides private repositories)', async () => {
    server.use({
      [`GET ${issueUrl}`]: { ...notFound, headers: githubHeaders({ 'x-oauth-scopes': 'public_repo' }) },
    });
    const envelope = await getIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found' });
    expect((envelope as { user_message: string }).user_message).toContain(
      'If the repository is private, the token needs the repo scope.',
    );
  });

  it('maps 410 (issues disabled) to not_found with GitHub’s reason', async () => {
    server.use({ [`POST ${issuesUrl}`]: issuesDisabled });
    const envelope = await createIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found' });
    expect((envelope as { user_message: string }).user_message).toContain('Issues are disabled');
  });

  it('names the failing field of a 422 so the model can correct it', async () => {
    server.use({ [`POST ${issuesUrl}`]: validationFailed });
    const envelope = await createIssue();
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect((envelope as { user_message: string }).user_message).toContain(
      'Validation Failed: title missing field',
    );
  });

  it('never returns the token, even when GitHub echoes it', async () => {
    server.use({
      [`GET ${issueUrl}`]: { status: 401, body: { message: `Bad credentials: ${testToken}` } },
    });
    expect(JSON.stringify(await getIssue())).not.toContain(testToken);
  });
});
