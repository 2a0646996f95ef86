import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { answerByOperation, issueNode, operationOf, variablesOf } from '../fixtures/linear-responses.js';
import { linear } from '../linear-connector.js';

const endpoint = 'https://api.linear.app/graphql';
const server = createTestServer({ [`POST ${endpoint}`]: answerByOperation });
const apiKey = 'lin_api_test0000000000000000000000';
const credentials = { api_key: apiKey };
const call = (name: string, input: unknown, connector = linear, given = credentials) =>
  callConnectorTool(connector, name, input, { credentials: given });

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
