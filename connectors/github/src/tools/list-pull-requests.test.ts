import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool } from '../fixtures/call-github-tool.js';
import { githubHeaders, pullRequests } from '../fixtures/github-responses.js';

const api = 'https://api.github.com';
const server = createTestServer({
  [`GET ${api}/repos/:owner/:repo/pulls`]: { headers: githubHeaders(), body: pullRequests },
});

describe('github_list_pull_requests', () => {
  it('lists open pull requests newest first by default', async () => {
    const envelope = await callGithubTool('github_list_pull_requests', {
      owner: 'octocat',
      repo: 'Hello-World',
    });
    expect(server.calls[0]?.url.split('?')[0]).toBe(`${api}/repos/octocat/Hello-World/pulls`);
    expect(server.calls[0]?.searchParams).toEqual({
      state: 'open',
      per_page: '20',
      sort: 'created',
      direction: 'desc',
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        pull_requests: [
          {
            number: 1348,
            title: 'Fix the bug',
            state: 'open',
            draft: false,
            merged: false,
            url: 'https://github.com/octocat/Hello-World/pull/1348',
            author: 'octocat',
            head: 'new-topic',
            base: 'master',
            created_at: '2011-01-26T19:01:12Z',
            updated_at: '2011-01-26T19:01:12Z',
          },
        ],
      },
    });
  });

  it('rejects an unknown state as an argument the model can fix', async () => {
    const envelope = await callGithubTool('github_list_pull_requests', {
      owner: 'octocat',
      repo: 'Hello-World',
      state: 'merged',
    });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });
});
