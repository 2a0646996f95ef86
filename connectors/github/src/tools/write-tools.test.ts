import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool, testToken } from '../fixtures/call-github-tool.js';
import { closedIssue, comment, githubHeaders, issue } from '../fixtures/github-responses.js';

const api = 'https://api.github.com';
const server = createTestServer({
  [`POST ${api}/repos/:owner/:repo/issues`]: { status: 201, headers: githubHeaders(), body: issue },
  [`POST ${api}/repos/:owner/:repo/issues/:number/comments`]: {
    status: 201,
    headers: githubHeaders(),
    body: comment,
  },
  [`PATCH ${api}/repos/:owner/:repo/issues/:number`]: { headers: githubHeaders(), body: closedIssue },
});

describe('github_create_issue', () => {
  it('posts title, body, labels and assignees as JSON', async () => {
    const envelope = await callGithubTool('github_create_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      title: 'Found a bug',
      body: "I'm having a problem with this.",
      labels: ['bug'],
      assignees: ['octocat'],
    });
    const [call] = server.calls;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe(`${api}/repos/octocat/Hello-World/issues`);
    expect(call?.headers.authorization).toBe(`Bearer ${testToken}`);
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual({
      title: 'Found a bug',
      body: "I'm having a problem with this.",
      labels: ['bug'],
      assignees: ['octocat'],
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: { number: 1347, url: 'https://github.com/octocat/Hello-World/issues/1347', state: 'open' },
    });
  });

  it('leaves optional fields out of the request', async () => {
    await callGithubTool('github_create_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      title: 'Only a title',
    });
    expect(server.calls[0]?.body).toEqual({ title: 'Only a title' });
  });

  it('asks for a title instead of opening an untitled issue', async () => {
    const envelope = await callGithubTool('github_create_issue', { owner: 'octocat', repo: 'Hello-World' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'title', question: 'What should the issue be titled?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('is refused before any request when the token lacks public_repo', async () => {
    const envelope = await callGithubTool(
      'github_create_issue',
      { owner: 'octocat', repo: 'Hello-World', title: 'Found a bug' },
      { scopes: ['read:org'] },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['public_repo'],
    });
    expect(server.calls).toHaveLength(0);
  });
});

describe('github_comment_on_issue', () => {
  it('posts the comment body to the issue', async () => {
    const envelope = await callGithubTool('github_comment_on_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      issue_number: 1347,
      body: 'Me too',
    });
    expect(server.calls[0]?.method).toBe('POST');
    expect(server.calls[0]?.url).toBe(`${api}/repos/octocat/Hello-World/issues/1347/comments`);
    expect(server.calls[0]?.body).toEqual({ body: 'Me too' });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        id: 1,
        url: 'https://github.com/octocat/Hello-World/issues/1347#issuecomment-1',
        created_at: '2011-04-14T16:00:49Z',
      },
    });
  });

  it('asks what the comment should say', async () => {
    const envelope = await callGithubTool('github_comment_on_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      issue_number: 1347,
    });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'body', question: 'What should the comment say?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
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
});
