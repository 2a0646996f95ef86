import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { jsonHeaders, searchPage } from '../fixtures/jira-responses.js';
import { createJira } from '../jira-connector.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer({
  [`POST ${site}/rest/api/3/search/jql`]: { headers: jsonHeaders, body: searchPage },
});
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const basic = `Basic ${Buffer.from('mia@acme.example:ATATT3xFfGF0-test-token').toString('base64')}`;
const call = (name: string, input: unknown, connector = jira) =>
  callConnectorTool(connector, name, input, { credentials });

describe('jira_search_issues', () => {
  it('posts the JQL to the enhanced search endpoint and returns a page with its token', async () => {
    const envelope = await call('jira_search_issues', {
      jql: 'project = PROJ ORDER BY updated DESC',
      max_results: 2,
      next_page_token: 'CAEaAggC',
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        issues: [
          { key: 'PROJ-7', status: 'In Progress', assignee: 'Mia Krystof', url: `${site}/browse/PROJ-7` },
          { key: 'PROJ-8', summary: 'Add dark mode', status: 'To Do', assignee: null, issue_type: 'Story' },
        ],
        next_page_token: 'CAEaAggD',
        is_last: false,
      },
    });
    const [request] = server.calls;
    expect(request).toMatchObject({ method: 'POST', url: `${site}/rest/api/3/search/jql` });
    expect(request?.headers.authorization).toBe(basic);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      jql: 'project = PROJ ORDER BY updated DESC',
      maxResults: 2,
      fields: ['summary', 'status', 'assignee', 'priority', 'issuetype', 'updated'],
      nextPageToken: 'CAEaAggC',
    });
  });

  it('defaults to 20 results and reports the last page', async () => {
    server.use({ [`POST ${site}/rest/api/3/search/jql`]: { body: { issues: [], isLast: true } } });
    const envelope = await call('jira_search_issues', { jql: 'assignee = currentUser()' });
    expect(envelope).toMatchObject({ ok: true, data: { issues: [], next_page_token: null, is_last: true } });
    expect(server.calls[0]?.body).toMatchObject({ maxResults: 20 });
    expect(server.calls[0]?.body).not.toHaveProperty('nextPageToken');
  });

  it('turns a JQL syntax error into invalid_arguments with Jira’s message', async () => {
    server.use({
      [`POST ${site}/rest/api/3/search/jql`]: {
        status: 400,
        headers: jsonHeaders,
        body: { errorMessages: ["Error in the JQL Query: Expecting operator but got 'PROJ'."], errors: {} },
      },
    });
    const envelope = await call('jira_search_issues', { jql: 'project PROJ' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments', connector: 'jira' });
    expect(envelope.ok === false && envelope.user_message).toContain('Expecting operator');
  });
});
