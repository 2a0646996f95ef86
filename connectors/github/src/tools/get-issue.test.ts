import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool, testToken } from '../fixtures/call-github-tool.js';
import { githubHeaders, issue } from '../fixtures/github-responses.js';
import { createGithub } from '../github-connector.js';

const api = 'https://api.github.com';
const server = createTestServer({
  [`GET ${api}/repos/:owner/:repo/issues/:number`]: { headers: githubHeaders(), body: issue },
});

describe('github_get_issue', () => {
  it('gets the issue with GitHub headers and returns a compact summary with the body', async () => {
    const envelope = await callGithubTool('github_get_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      issue_number: 1347,
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        number: 1347,
        title: 'Found a bug',
        state: 'open',
        state_reason: null,
        url: 'https://github.com/octocat/Hello-World/issues/1347',
        author: 'octocat',
        labels: ['bug'],
        assignees: ['octocat'],
        comments: 0,
        is_pull_request: false,
        created_at: '2011-04-22T13:33:48Z',
        updated_at: '2011-04-22T13:33:48Z',
        closed_at: null,
        body: "I'm having a problem with this.",
      },
    });
    const [call] = server.calls;
    expect(call?.method).toBe('GET');
    expect(call?.url).toBe(`${api}/repos/octocat/Hello-World/issues/1347`);
    expect(call?.headers).toMatchObject({
      authorization: `Bearer ${testToken}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'patchbay-connector-github',
    });
  });

  it('encodes owner and repo so a crafted name cannot reach another path', async () => {
    server.use({ [`GET ${api}/*`]: { headers: githubHeaders(), body: issue } });
    await callGithubTool('github_get_issue', { owner: 'octo cat', repo: '../admin', issue_number: 1 });
    expect(server.calls[0]?.url).toBe(`${api}/repos/octo%20cat/..%2Fadmin/issues/1`);
  });

  it('shortens very long bodies and says so', async () => {
    server.use({
      [`GET ${api}/repos/:owner/:repo/issues/:number`]: {
        headers: githubHeaders(),
        body: { ...issue, body: 'x'.repeat(20_000) },
      },
    });
    const envelope = await callGithubTool('github_get_issue', {
      owner: 'octocat',
      repo: 'Hello-World',
      issue_number: 1347,
    });
    expect(envelope.ok && (envelope.data as { body: string }).body.length).toBe(8_001);
    expect(envelope).toMatchObject({ ok: true, data: { body_truncated: true } });
  });

  it('asks which issue when the number is missing, without a request', async () => {
    const envelope = await callGithubTool('github_get_issue', { owner: 'octocat', repo: 'Hello-World' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'issue_number', question: 'Which issue number do you mean?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('asks for owner and repo when both are missing', async () => {
    const envelope = await callGithubTool('github_get_issue', { issue_number: 3 });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [
        { field: 'owner', question: 'Which GitHub account or organization owns the repository?' },
        { field: 'repo', question: 'Which repository do you mean?' },
      ],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('talks to GitHub Enterprise Server under its /api/v3 base URL', async () => {
    server.use({
      'GET https://ghe.example.com/api/v3/repos/:owner/:repo/issues/:number': {
        headers: githubHeaders(),
        body: { ...issue, html_url: 'https://ghe.example.com/octocat/Hello-World/issues/1347' },
      },
    });
    const enterprise = createGithub({ baseUrl: 'https://ghe.example.com/api/v3' });
    const envelope = await callGithubTool(
      'github_get_issue',
      { owner: 'octocat', repo: 'Hello-World', issue_number: 1347 },
      { connector: enterprise },
    );
    expect(envelope).toMatchObject({
      ok: true,
      data: { url: 'https://ghe.example.com/octocat/Hello-World/issues/1347' },
    });
    expect(server.calls[0]?.url).toBe('https://ghe.example.com/api/v3/repos/octocat/Hello-World/issues/1347');
    expect(enterprise.setupUrl).toBe('https://ghe.example.com/settings/tokens');
  });

  it('uses a custom fetch and extra headers from the settings', async () => {
    const seen: string[] = [];
    const connector = createGithub({
      headers: { 'x-trace': 'turn-7' },
      fetch: (url, init) => {
        seen.push(String(url));
        return globalThis.fetch(url, init);
      },
    });
    await callGithubTool(
      'github_get_issue',
      { owner: 'octocat', repo: 'Hello-World', issue_number: 1347 },
      { connector },
    );
    expect(seen).toEqual([`${api}/repos/octocat/Hello-World/issues/1347`]);
    expect(server.calls[0]?.headers['x-trace']).toBe('turn-7');
  });
});
