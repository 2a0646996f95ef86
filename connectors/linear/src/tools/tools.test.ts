import { callConnectorTool, createTestServer, type RecordedRequest } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import {
  commentCreated,
  graphqlHeaders,
  issueCreated,
  issueDetail,
  issueId,
  issueNode,
  issueStates,
  issueUpdated,
  searchResult,
  teamByKey,
  teams,
} from '../fixtures/linear-responses.js';
import { createLinear, linear } from '../linear-connector.js';

const endpoint = 'https://api.linear.app/graphql';
const byOperation: Record<string, unknown> = {
  PatchbaySearchIssues: searchResult,
  PatchbayIssue: issueDetail,
  PatchbayTeams: teams,
  PatchbayTeamByKey: teamByKey,
  PatchbayIssueId: issueId,
  PatchbayCreateIssue: issueCreated,
  PatchbayCreateComment: commentCreated,
  PatchbayIssueStates: issueStates,
  PatchbayUpdateIssueState: issueUpdated,
};
const operationOf = (request: RecordedRequest | undefined) =>
  /^\s*(?:query|mutation)\s+(\w+)/.exec(String((request?.body as { query?: string })?.query))?.[1];
const server = createTestServer({
  [`POST ${endpoint}`]: (request) => {
    const body = byOperation[operationOf(request) ?? ''];
    return body
      ? { headers: graphqlHeaders, body }
      : { status: 400, body: { errors: [{ message: 'unknown' }] } };
  },
});
const apiKey = 'lin_api_test0000000000000000000000';
const credentials = { api_key: apiKey };
const call = (name: string, input: unknown, connector = linear, given = credentials) =>
  callConnectorTool(connector, name, input, { credentials: given });
const variablesOf = (request: RecordedRequest | undefined) =>
  (request?.body as { variables?: Record<string, unknown> })?.variables;

describe('linear_search_issues', () => {
  it('posts searchIssues with the personal key as it is and returns a page with a cursor', async () => {
    const envelope = await call('linear_search_issues', { query: 'login', max_results: 2 });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        issues: [
          {
            id: issueNode.id,
            identifier: 'ENG-123',
            title: 'Login page times out',
            state: 'In Progress',
            state_type: 'started',
            priority: 'High',
            assignee: 'Ada Lovelace',
            team: 'ENG',
            url: issueNode.url,
          },
          { identifier: 'ENG-98', assignee: null, priority: 'No priority' },
        ],
        next_cursor: '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      },
    });
    const [request] = server.calls;
    expect(request).toMatchObject({ method: 'POST', url: endpoint });
    expect(request?.headers.authorization).toBe(apiKey);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(operationOf(request)).toBe('PatchbaySearchIssues');
    expect(variablesOf(request)).toEqual({ term: 'login', first: 2 });
  });

  it('sends an OAuth access token as Bearer and passes the cursor on', async () => {
    await call('linear_search_issues', { query: 'login', cursor: 'abc' }, linear, {
      api_key: 'lin_oauth_0123456789abcdef0123',
    });
    expect(server.calls[0]?.headers.authorization).toBe('Bearer lin_oauth_0123456789abcdef0123');
    expect(variablesOf(server.calls[0])).toEqual({ term: 'login', first: 20, after: 'abc' });
  });

  it('asks what to search for when the query is missing', async () => {
    const envelope = await call('linear_search_issues', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'query', question: 'What should I search Linear for?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});

describe('linear_get_issue', () => {
  it('gets the issue by identifier with its description, labels and project', async () => {
    const envelope = await call('linear_get_issue', { issue_id: 'ENG-123' });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        identifier: 'ENG-123',
        description: 'Users wait 30 seconds, then see an error.\n\n- Chrome 130',
        creator: 'Grace Hopper',
        project: 'Auth revamp',
        labels: ['Bug', 'customer'],
        due_date: '2026-11-30',
        created_at: '2026-11-18T09:12:44.000Z',
      },
    });
    expect(variablesOf(server.calls[0])).toEqual({ id: 'ENG-123' });
    expect(server.calls[0]?.headers.authorization).toBe(apiKey);
  });

  it('refuses something that is neither an identifier nor a UUID, before any request', async () => {
    const envelope = await call('linear_get_issue', { issue_id: 'the login bug' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });
});

describe('linear_list_teams', () => {
  it('lists teams with their keys', async () => {
    const envelope = await call('linear_list_teams', {});
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        teams: [
          { key: 'ENG', name: 'Engineering' },
          { key: 'DES', name: 'Design' },
        ],
      },
    });
    expect(variablesOf(server.calls[0])).toEqual({ first: 100 });
  });
});

describe('linear_create_issue', () => {
  it('resolves a team key, then creates the issue with the team id', async () => {
    const envelope = await call('linear_create_issue', {
      team: 'eng',
      title: 'Login page times out',
      description: 'Users wait **30 s**.',
      priority: 2,
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        identifier: 'ENG-124',
        url: 'https://linear.app/acme/issue/ENG-124/login-page-times-out',
      },
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayTeamByKey', 'PatchbayCreateIssue']);
    expect(variablesOf(server.calls[0])).toEqual({ key: 'eng' });
    expect(variablesOf(server.calls[1])).toEqual({
      input: {
        teamId: teams.data.teams.nodes[0]!.id,
        title: 'Login page times out',
        description: 'Users wait **30 s**.',
        priority: 2,
      },
    });
    expect(server.calls[1]?.headers.authorization).toBe(apiKey);
  });

  it('uses a team id as it is, in one request', async () => {
    await call('linear_create_issue', { team: teams.data.teams.nodes[1]!.id, title: 'Icons' });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayCreateIssue']);
    expect(variablesOf(server.calls[0])).toEqual({
      input: { teamId: teams.data.teams.nodes[1]!.id, title: 'Icons' },
    });
  });

  it('points at linear_list_teams when no team has the key, and creates nothing', async () => {
    byOperation.PatchbayTeamByKey = { data: { teams: { nodes: [] } } };
    try {
      const envelope = await call('linear_create_issue', { team: 'NOPE', title: 'x' });
      expect(envelope).toMatchObject({
        ok: false,
        error_type: 'invalid_arguments',
        issues: [{ path: 'team', message: expect.stringContaining('linear_list_teams') }],
      });
      expect(server.calls.map(operationOf)).toEqual(['PatchbayTeamByKey']);
    } finally {
      byOperation.PatchbayTeamByKey = teamByKey;
    }
  });

  it('asks for the team and the title when both are missing', async () => {
    const envelope = await call('linear_create_issue', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: expect.arrayContaining([
        { field: 'team', question: 'Which Linear team should the issue go in?' },
        { field: 'title', question: 'What should the Linear issue be called?' },
      ]),
    });
    expect(server.calls).toHaveLength(0);
  });

  it('reports success: false as an upstream failure', async () => {
    server.use({
      [`POST ${endpoint}`]: { body: { data: { issueCreate: { success: false, issue: null } } } },
    });
    const envelope = await call('linear_create_issue', { team: teams.data.teams.nodes[0]!.id, title: 'x' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'upstream_error', retryable: false });
  });
});

describe('linear_comment_on_issue', () => {
  it('resolves the identifier to the issue id and creates the comment', async () => {
    const envelope = await call('linear_comment_on_issue', {
      issue_id: 'ENG-123',
      body: 'Reproduced on Chrome.',
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        issue_id: 'ENG-123',
        comment_id: commentCreated.data.commentCreate.comment.id,
        url: commentCreated.data.commentCreate.comment.url,
      },
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayIssueId', 'PatchbayCreateComment']);
    expect(variablesOf(server.calls[1])).toEqual({
      input: { issueId: issueNode.id, body: 'Reproduced on Chrome.' },
    });
  });

  it('asks what to say when the body is missing', async () => {
    const envelope = await call('linear_comment_on_issue', { issue_id: 'ENG-123' });
    expect(envelope).toMatchObject({
      error_type: 'needs_input',
      missing: [{ field: 'body', question: 'What should the comment say?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});

describe('linear_update_issue_state', () => {
  it("finds the state in the issue's team and updates the issue", async () => {
    const envelope = await call('linear_update_issue_state', { issue_id: 'ENG-123', state: 'done' });
    expect(envelope).toMatchObject({
      ok: true,
      data: { identifier: 'ENG-123', state: 'Done', previous_state: 'In Progress', url: issueNode.url },
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayIssueStates', 'PatchbayUpdateIssueState']);
    expect(variablesOf(server.calls[1])).toEqual({ id: issueNode.id, stateId: 's-done' });
  });

  it("lists the team's states when the name is not one, and changes nothing", async () => {
    const envelope = await call('linear_update_issue_state', { issue_id: 'ENG-123', state: 'Shipped' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
      issues: [{ path: 'state', message: expect.stringContaining('Backlog, Todo, In Progress, Done') }],
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayIssueStates']);
  });
});

describe('settings', () => {
  it('honours baseUrl, fetch and headers', async () => {
    server.use({ 'POST https://proxy.test/linear/graphql': { body: teams } });
    const seen: string[] = [];
    const proxied = createLinear({
      baseUrl: 'https://proxy.test/linear/',
      headers: { 'x-trace': 'abc' },
      fetch: (url, init) => {
        seen.push(String(url));
        return globalThis.fetch(url, init);
      },
    });
    const envelope = await call('linear_list_teams', {}, proxied);
    expect(envelope).toMatchObject({ ok: true, data: { teams: [{ key: 'ENG' }, { key: 'DES' }] } });
    expect(seen).toEqual(['https://proxy.test/linear/graphql']);
    expect(server.calls[0]?.headers['x-trace']).toBe('abc');
  });
});
