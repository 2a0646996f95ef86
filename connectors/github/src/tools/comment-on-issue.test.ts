import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool } from '../fixtures/call-github-tool.js';
import { comment, githubHeaders } from '../fixtures/github-responses.js';

const api = 'https://api.github.com';
const server = createTestServer({
  [`POST ${api}/repos/:owner/:repo/issues/:number/comments`]: {
    status: 201,
    headers: githubHeaders(),
    body: comment,
  },
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
