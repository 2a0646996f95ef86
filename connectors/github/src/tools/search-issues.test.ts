import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool } from '../fixtures/call-github-tool.js';
import { githubHeaders, searchResult } from '../fixtures/github-responses.js';

const api = 'https://api.github.com';
const server = createTestServer({
  [`GET ${api}/search/issues`]: {
    headers: githubHeaders({ 'x-ratelimit-resource': 'search' }),
    body: searchResult,
  },
});

describe('github_search_issues', () => {
  it('sends the query with paging and marks pull requests', async () => {
    const envelope = await callGithubTool('github_search_issues', {
      query: 'repo:octocat/Hello-World is:open label:bug',
      per_page: 5,
    });
    expect(server.calls[0]?.searchParams).toEqual({
      q: 'repo:octocat/Hello-World is:open label:bug',
      per_page: '5',
      page: '1',
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        total_count: 2,
        incomplete_results: false,
        items: [
          { number: 1347, is_pull_request: false },
          { number: 1348, is_pull_request: true, url: 'https://github.com/octocat/Hello-World/pull/1348' },
        ],
      },
    });
    // Search results leave bodies out to stay small.
    expect(envelope.ok && (envelope.data as { items: object[] }).items[0]).not.toHaveProperty('body');
  });

  it('asks what to search for when the query is missing', async () => {
    const envelope = await callGithubTool('github_search_issues', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'query', question: 'What should I search GitHub issues for?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});
