// GitHub's own OpenAPI description (@octokit/openapi-types, generated from github/rest-api-description)
// as the oracle for every request this connector sends. tsc checks the table below against it
// (each path, method, body field and query parameter must exist there); the tests check that every
// request the tools and verify() send is in the table.
import type { paths } from '@octokit/openapi-types';
import type { RecordedRequest } from '@patchbay/testing';
import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callGithubTool, testToken } from './fixtures/call-github-tool.js';
import {
  authenticatedUser,
  closedIssue,
  comment,
  githubHeaders,
  installationRepositories,
  issue,
  notAccessibleByIntegration,
  pullRequests,
  searchResult,
} from './fixtures/github-responses.js';
import { github } from './github-connector.js';

type Method = 'get' | 'post' | 'patch';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;
type JsonBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends {
    requestBody?: { content: { 'application/json': infer Body } };
  }
    ? NonNullable<Body>
    : never;
type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends {
    parameters: { query?: infer Query };
  }
    ? NonNullable<Query>
    : never;
/** Some of the field names the schema defines; a name GitHub does not know fails tsc. */
type Fields<T> = Partial<Record<keyof T, true>>;

interface CheckedOperation {
  method: string;
  template: string;
  body: Record<string, true>;
  query: Record<string, true>;
}

function operation<P extends keyof paths, M extends Method>(
  template: P,
  method: M & (paths[P][M & keyof paths[P]] extends undefined ? never : M),
  fields: { body?: Fields<JsonBody<P, M>>; query?: Fields<QueryOf<P, M>> } = {},
): CheckedOperation {
  return {
    method: method.toUpperCase(),
    template,
    body: (fields.body ?? {}) as Record<string, true>,
    query: (fields.query ?? {}) as Record<string, true>,
  };
}

/** Every request the connector may send, each checked by tsc against GitHub's description. */
const operations = [
  operation('/user', 'get'),
  operation('/installation/repositories', 'get', { query: { per_page: true } }),
  operation('/repos/{owner}/{repo}/issues/{issue_number}', 'get'),
  operation('/search/issues', 'get', { query: { q: true, per_page: true, page: true } }),
  operation('/repos/{owner}/{repo}/pulls', 'get', {
    query: { state: true, per_page: true, sort: true, direction: true },
  }),
  operation('/repos/{owner}/{repo}/issues', 'post', {
    body: { title: true, body: true, labels: true, assignees: true },
  }),
  operation('/repos/{owner}/{repo}/issues/{issue_number}/comments', 'post', { body: { body: true } }),
  operation('/repos/{owner}/{repo}/issues/{issue_number}', 'patch', {
    body: { state: true, state_reason: true },
  }),
];

type CloseReason = NonNullable<
  JsonBody<'/repos/{owner}/{repo}/issues/{issue_number}', 'patch'>['state_reason']
>;
/** Every reason GitHub accepts for closing (`reopened` is for reopening); tsc fails if GitHub adds one. */
const closeReasons = ['completed', 'not_planned', 'duplicate'] as const satisfies readonly CloseReason[];
const everyCloseReasonListed: Exclude<CloseReason, 'reopened'> extends (typeof closeReasons)[number]
  ? true
  : never = true;

const api = 'https://api.github.com';
const mswPath = (template: string) => `${api}${template.replace(/\{(\w+)\}/g, ':$1')}`;
const server = createTestServer({
  [`GET ${mswPath('/user')}`]: { headers: githubHeaders(), body: authenticatedUser },
  [`GET ${mswPath('/installation/repositories')}`]: {
    headers: githubHeaders(),
    body: installationRepositories,
  },
  [`GET ${mswPath('/repos/{owner}/{repo}/issues/{issue_number}')}`]: {
    headers: githubHeaders(),
    body: issue,
  },
  [`GET ${mswPath('/search/issues')}`]: { headers: githubHeaders(), body: searchResult },
  [`GET ${mswPath('/repos/{owner}/{repo}/pulls')}`]: { headers: githubHeaders(), body: pullRequests },
  [`POST ${mswPath('/repos/{owner}/{repo}/issues')}`]: { status: 201, headers: githubHeaders(), body: issue },
  [`POST ${mswPath('/repos/{owner}/{repo}/issues/{issue_number}/comments')}`]: {
    status: 201,
    headers: githubHeaders(),
    body: comment,
  },
  [`PATCH ${mswPath('/repos/{owner}/{repo}/issues/{issue_number}')}`]: {
    headers: githubHeaders(),
    body: closedIssue,
  },
});

function describedOperation(call: RecordedRequest): CheckedOperation | undefined {
  const url = new URL(call.url);
  return operations.find((candidate) => {
    const pattern = new RegExp(`^${candidate.template.replace(/\{\w+\}/g, '[^/]+')}$`);
    return candidate.method === call.method && pattern.test(url.pathname);
  });
}

function expectDescribed(calls: readonly RecordedRequest[]) {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    const described = describedOperation(call);
    expect(described, `${call.method} ${call.url} is not in GitHub's OpenAPI description`).toBeDefined();
    if (!described) continue;
    expect(Object.keys(call.searchParams).filter((key) => !described.query[key])).toEqual([]);
    const body = call.body && typeof call.body === 'object' ? (call.body as Record<string, unknown>) : {};
    expect(Object.keys(body).filter((key) => !described.body[key])).toEqual([]);
  }
}

const repo = { owner: 'octocat', repo: 'Hello-World' };
const toolCalls: [string, Record<string, unknown>][] = [
  ['github_get_issue', { ...repo, issue_number: 1347 }],
  ['github_search_issues', { query: 'repo:octocat/Hello-World is:open', per_page: 5, page: 2 }],
  ['github_list_pull_requests', { ...repo, state: 'all' }],
  [
    'github_create_issue',
    { ...repo, title: 'Found a bug', body: 'Steps', labels: ['bug'], assignees: ['octocat'] },
  ],
  ['github_comment_on_issue', { ...repo, issue_number: 1347, body: 'Me too' }],
  ['github_close_issue', { ...repo, issue_number: 1347, state_reason: 'not_planned' }],
];

describe('GitHub requests against GitHub’s OpenAPI description', () => {
  it.each(toolCalls)(
    '%s sends only a described operation, body fields and query parameters',
    async (name, input) => {
      const envelope = await callGithubTool(name, input);
      expect(envelope).toMatchObject({ ok: true });
      expectDescribed(server.calls);
    },
  );

  it('verify() sends only described operations, for a user token and an installation token', async () => {
    await github.verify({ token: testToken });
    server.use({ [`GET ${mswPath('/user')}`]: notAccessibleByIntegration });
    await github.verify({ token: 'ghs_16C7e42F292c6912E7710c838347Ae178B4a' });
    expectDescribed(server.calls);
    expect(server.calls.map((call) => new URL(call.url).pathname)).toEqual([
      '/user',
      '/user',
      '/installation/repositories',
    ]);
  });

  it('github_close_issue offers every reason GitHub accepts for closing', () => {
    expect(everyCloseReasonListed).toBe(true);
    const tool = github.tools.find((candidate) => candidate.name === 'github_close_issue');
    const schema = tool?.inputJsonSchema as { properties?: { state_reason?: { enum?: string[] } } };
    expect([...(schema.properties?.state_reason?.enum ?? [])].sort()).toEqual([...closeReasons].sort());
  });
});
