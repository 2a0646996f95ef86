import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { jsonHeaders, transitions } from '../fixtures/jira-responses.js';
import { createJira } from '../jira-connector.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer({
  [`GET ${site}/rest/api/3/issue/:key/transitions`]: { headers: jsonHeaders, body: transitions },
  [`POST ${site}/rest/api/3/issue/:key/transitions`]: { status: 204 },
});
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const basic = `Basic ${Buffer.from('mia@acme.example:ATATT3xFfGF0-test-token').toString('base64')}`;
const call = (name: string, input: unknown, connector = jira) =>
  callConnectorTool(connector, name, input, { credentials });

describe('jira_transition_issue', () => {
  it('finds the transition by target status and posts its id', async () => {
    const envelope = await call('jira_transition_issue', { issue_key: 'PROJ-7', status: 'done' });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: expect.any(String) },
      data: { issue_key: 'PROJ-7', status: 'Done', transition: 'Resolve' },
    });
    expect(server.calls.map((request) => `${request.method} ${request.url}`)).toEqual([
      `GET ${site}/rest/api/3/issue/PROJ-7/transitions`,
      `POST ${site}/rest/api/3/issue/PROJ-7/transitions`,
    ]);
    expect(server.calls[1]?.headers.authorization).toBe(basic);
    expect(server.calls[1]?.body).toEqual({ transition: { id: '31' } });
  });

  it('also accepts the transition name', async () => {
    await call('jira_transition_issue', { issue_key: 'PROJ-7', status: 'Start progress' });
    expect(server.calls[1]?.body).toEqual({ transition: { id: '21' } });
  });

  it('lists the reachable statuses when the target is not one, without moving anything', async () => {
    const envelope = await call('jira_transition_issue', { issue_key: 'PROJ-7', status: 'Closed' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
      connector: 'jira',
      issues: [{ path: 'status', message: expect.stringContaining('reachable: To Do, In Progress, Done') }],
    });
    expect(server.calls.map((request) => request.method)).toEqual(['GET']);
  });
});
