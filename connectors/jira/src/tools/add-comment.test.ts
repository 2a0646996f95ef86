import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createdComment, jsonHeaders } from '../fixtures/jira-responses.js';
import { createJira } from '../jira-connector.js';

const site = 'https://acme.atlassian.net';
const server = createTestServer({
  [`POST ${site}/rest/api/3/issue/:key/comment`]: { status: 201, headers: jsonHeaders, body: createdComment },
});
const jira = createJira({ baseUrl: site });
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const basic = `Basic ${Buffer.from('mia@acme.example:ATATT3xFfGF0-test-token').toString('base64')}`;
const call = (name: string, input: unknown, connector = jira) =>
  callConnectorTool(connector, name, input, { credentials });

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
