import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool } from '../fixtures/call-github-tool.js';
import { closedIssue, githubHeaders } from '../fixtures/github-responses.js';

const api = 'https://api.github.com';
const server = createTestServer({
  [`PATCH ${api}/repos/:owner/:repo/issues/:number`]: { headers: githubHeaders(), body: closedIssue },
});

describe('github_close_issue', () => {
  it('patches the issue closed as completed by default', async () => {
    const envelope = await callGithubTool('github_close_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      issue_number: 1347,
    });
    expect(server.calls[0]?.method).toBe('PATCH');
    expect(server.calls[0]?.url).toBe(`${api}/repos/octocat/Hello-World/issues/1347`);
    expect(server.calls[0]?.body).toEqual({ state: 'closed', state_reason: 'completed' });
    expect(envelope).toMatchObject({
      ok: true,
      data: { number: 1347, state: 'closed', state_reason: 'completed', closed_at: '2011-04-23T09:00:00Z' },
    });
  });

  it('passes not_planned through', async () => {
    await callGithubTool('github_close_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      issue_number: 1347,
      state_reason: 'not_planned',
    });
    expect(server.calls[0]?.body).toEqual({ state: 'closed', state_reason: 'not_planned' });
  });

  it('closes as a duplicate, the third reason GitHub accepts', async () => {
    const envelope = await callGithubTool('github_close_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      issue_number: 1347,
      state_reason: 'duplicate',
    });
    expect(envelope).toMatchObject({ ok: true });
    expect(server.calls[0]?.body).toEqual({ state: 'closed', state_reason: 'duplicate' });
  });
});
