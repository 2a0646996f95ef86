import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createdIssue, fieldErrors, jsonHeaders } from '../fixtures/jira-responses.js';
import { createJira } from '../jira-connector.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer({
  [`POST ${site}/rest/api/3/issue`]: { status: 201, headers: jsonHeaders, body: createdIssue },
});
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const basic = `Basic ${Buffer.from('mia@acme.example:ATATT3xFfGF0-test-token').toString('base64')}`;
const call = (name: string, input: unknown, connector = jira) =>
  callConnectorTool(connector, name, input, { credentials });

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
