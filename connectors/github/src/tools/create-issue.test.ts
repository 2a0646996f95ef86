import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool, testToken } from '../fixtures/call-github-tool.js';
import { githubHeaders, issue } from '../fixtures/github-responses.js';

const api = 'https://api.github.com';
const server = createTestServer({
  [`POST ${api}/repos/:owner/:repo/issues`]: { status: 201, headers: githubHeaders(), body: issue },
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
