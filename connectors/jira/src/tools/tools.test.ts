import { callConnectorTool, callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import {
  createdComment,
  createdIssue,
  fieldErrors,
  issue,
  jsonHeaders,
  searchPage,
  transitions,
} from '../fixtures/jira-responses.js';
import { createJira, jira as unconfigured } from '../jira-connector.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer({
  [`GET ${site}/rest/api/3/issue/:key`]: { headers: jsonHeaders, body: issue },
  [`POST ${site}/rest/api/3/search/jql`]: { headers: jsonHeaders, body: searchPage },
  [`POST ${site}/rest/api/3/issue`]: { status: 201, headers: jsonHeaders, body: createdIssue },
  [`POST ${site}/rest/api/3/issue/:key/comment`]: { status: 201, headers: jsonHeaders, body: createdComment },
  [`GET ${site}/rest/api/3/issue/:key/transitions`]: { headers: jsonHeaders, body: transitions },
  [`POST ${site}/rest/api/3/issue/:key/transitions`]: { status: 204 },
});
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const basic = `Basic ${Buffer.from('mia@acme.example:ATATT3xFfGF0-test-token').toString('base64')}`;
const connected = snapshotFor(jira, 'connected');
const call = (name: string, input: unknown, connector = jira) =>
  callConnectorTool(connector, name, input, { credentials });

describe('jira_get_issue', () => {
  it('gets the issue with Basic auth and returns the description as plain text', async () => {
    const envelope = await call('jira_get_issue', { issue_key: 'PROJ-7' });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: expect.any(String) },
      data: {
        key: 'PROJ-7',
        id: '10002',
        summary: 'Login page times out',
        status: 'In Progress',
        status_category: 'indeterminate',
        issue_type: 'Bug',
        priority: 'High',
        assignee: 'Mia Krystof',
        updated: '2026-11-20T16:03:10.000+0000',
        url: `${site}/browse/PROJ-7`,
        project: 'PROJ',
        reporter: 'Emma Richards',
        labels: ['auth', 'customer'],
        created: '2026-11-18T09:12:44.000+0000',
        description: 'Users wait 30 seconds, then see an error.\n\nSeen by @Emma Richards\non Chrome.',
      },
    });
    const [request] = server.calls;
    expect(request?.method).toBe('GET');
    expect(request?.url.startsWith(`${site}/rest/api/3/issue/PROJ-7?`)).toBe(true);
    expect(request?.headers.authorization).toBe(basic);
    expect(request?.searchParams.fields?.split(',')).toEqual(
      expect.arrayContaining(['summary', 'description']),
    );
  });

  it('asks which issue when the key is missing, without a request', async () => {
    const envelope = await call('jira_get_issue', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'issue_key', question: 'Which Jira issue do you mean (for example PROJ-123)?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('refuses a malformed key as invalid_arguments before any request', async () => {
    const envelope = await call('jira_get_issue', { issue_key: '../../admin' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });
});

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

describe('jira_create_issue', () => {
  it('creates the issue with an ADF description and returns its key and link', async () => {
    const envelope = await call('jira_create_issue', {
      project_key: 'proj',
      summary: 'Login page times out',
      issue_type: 'Bug',
      description: 'Users wait 30 seconds.\nThen an error.\n\nSeen on Chrome.',
      labels: ['auth'],
    });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: expect.any(String) },
      data: { key: 'PROJ-24', id: '10024', url: `${site}/browse/PROJ-24` },
    });
    const [request] = server.calls;
    expect(request).toMatchObject({ method: 'POST', url: `${site}/rest/api/3/issue` });
    expect(request?.headers.authorization).toBe(basic);
    expect(request?.body).toEqual({
      fields: {
        project: { key: 'PROJ' },
        issuetype: { name: 'Bug' },
        summary: 'Login page times out',
        labels: ['auth'],
        description: {
          type: 'doc',
          version: 1,
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'Users wait 30 seconds.' },
                { type: 'hardBreak' },
                { type: 'text', text: 'Then an error.' },
              ],
            },
            { type: 'paragraph', content: [{ type: 'text', text: 'Seen on Chrome.' }] },
          ],
        },
      },
    });
  });

  it('defaults the issue type to Task and sends no description when none is given', async () => {
    await call('jira_create_issue', { project_key: 'PROJ', summary: 'Tidy up' });
    expect(server.calls[0]?.body).toEqual({
      fields: { project: { key: 'PROJ' }, issuetype: { name: 'Task' }, summary: 'Tidy up' },
    });
  });

  it('asks for the project and the summary when both are missing', async () => {
    const envelope = await call('jira_create_issue', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: expect.arrayContaining([
        { field: 'project_key', question: 'Which Jira project should the issue go in?' },
        { field: 'summary', question: 'What should the Jira issue be called?' },
      ]),
    });
    expect(server.calls).toHaveLength(0);
  });

  it('names each field Jira rejected', async () => {
    server.use({
      [`POST ${site}/rest/api/3/issue`]: { status: 400, headers: jsonHeaders, body: fieldErrors },
    });
    const envelope = await call('jira_create_issue', {
      project_key: 'PROJ',
      summary: 'x',
      issue_type: 'Epik',
    });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(envelope.ok === false && envelope.user_message).toContain('issuetype: Specify a valid issue type');
  });
});

describe('jira_add_comment', () => {
  it('posts the comment as ADF and links to it', async () => {
    const envelope = await call('jira_add_comment', { issue_key: 'PROJ-7', body: 'Reproduced on Chrome.' });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: expect.any(String) },
      data: {
        issue_key: 'PROJ-7',
        comment_id: '10100',
        created: '2026-11-21T15:00:00.000+0000',
        author: 'Mia Krystof',
        url: `${site}/browse/PROJ-7?focusedCommentId=10100`,
      },
    });
    const [request] = server.calls;
    expect(request).toMatchObject({ method: 'POST', url: `${site}/rest/api/3/issue/PROJ-7/comment` });
    expect(request?.headers.authorization).toBe(basic);
    expect(request?.body).toEqual({
      body: {
        type: 'doc',
        version: 1,
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Reproduced on Chrome.' }] }],
      },
    });
  });

  it('asks what to say when the body is missing', async () => {
    const envelope = await call('jira_add_comment', { issue_key: 'PROJ-7' });
    expect(envelope).toMatchObject({
      error_type: 'needs_input',
      missing: [{ field: 'body', question: 'What should the comment say?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});

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

describe('site and base URL', () => {
  it('lets baseUrl pin calls to the API gateway, where issues have no browse link', async () => {
    const gateway = 'https://api.atlassian.com/ex/jira/11223344-a1b2-3b33-c444-def123456789';
    server.use({ [`GET ${gateway}/rest/api/3/issue/:key`]: { body: issue } });
    const pinned = createJira({ baseUrl: `${gateway}/` });
    const envelope = await call('jira_get_issue', { issue_key: 'PROJ-7' }, pinned);
    expect(envelope).toMatchObject({ ok: true, data: { key: 'PROJ-7' } });
    expect(envelope.ok && envelope.data).not.toHaveProperty('url');
    expect(server.calls[0]?.url.startsWith(`${gateway}/rest/api/3/issue/PROJ-7`)).toBe(true);
  });

  it('uses a custom fetch and extra headers', async () => {
    const seen: string[] = [];
    const custom = createJira({
      baseUrl: site,
      headers: { 'x-trace': 'abc' },
      fetch: (url, init) => {
        seen.push(String(url));
        return globalThis.fetch(url, init);
      },
    });
    await call('jira_get_issue', { issue_key: 'PROJ-7' }, custom);
    expect(seen).toHaveLength(1);
    expect(server.calls[0]?.headers['x-trace']).toBe('abc');
  });

  it('refuses a plain-http site at creation: the token would travel in clear text', () => {
    expect(() => createJira({ baseUrl: 'http://acme.atlassian.net' })).toThrow(/https/);
    expect(() => createJira({ baseUrl: 'acme' })).toThrow(/site address/);
    expect(createJira({ baseUrl: 'http://localhost:8080' }).id).toBe('jira');
  });

  it('answers connector_not_configured without a site, and sends nothing', async () => {
    const envelope = await call('jira_get_issue', { issue_key: 'PROJ-7' }, unconfigured);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      connector: 'jira',
      setup_url: unconfigured.setupUrl,
    });
    expect(envelope.ok === false && envelope.user_message).toContain('baseUrl');
    expect(server.calls).toHaveLength(0);
  });

  it('reports a connection without an email as invalid credentials, without a request', async () => {
    const envelope = await callToolAsSubject(
      jira.tools.find((tool) => tool.name === 'jira_get_issue')!,
      { issue_key: 'PROJ-7' },
      { snapshot: connected, credentials: { api_token: 'ATATT3xFfGF0-test-token' }, setupUrl: jira.setupUrl },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_credentials',
      setup_url: jira.setupUrl,
    });
    expect(server.calls).toHaveLength(0);
  });
});
