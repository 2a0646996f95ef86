import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { issue, jsonHeaders } from '../fixtures/jira-responses.js';
import { createJira } from '../jira-connector.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer({
  [`GET ${site}/rest/api/3/issue/:key`]: { headers: jsonHeaders, body: issue },
});
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const basic = `Basic ${Buffer.from('mia@acme.example:ATATT3xFfGF0-test-token').toString('base64')}`;
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
