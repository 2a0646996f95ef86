import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool, formBody } from '../fixtures/call-slack-tool.js';
import { deletedMessage, slackHeaders } from '../fixtures/slack-responses.js';
import { slack } from '../slack-connector.js';

const api = 'https://slack.com/api';
const server = createTestServer({
  [`POST ${api}/chat.delete`]: { headers: slackHeaders(), body: deletedMessage },
});

describe('slack_delete_message', () => {
  it('is destructive and deletes by channel and timestamp', async () => {
    expect(slack.tools.find((tool) => tool.name === 'slack_delete_message')?.effect).toBe('destructive');
    const envelope = await callSlackTool('slack_delete_message', {
      channel: 'C012AB3CD',
      ts: '1503435956.000247',
    });
    expect(server.calls[0]?.url).toBe(`${api}/chat.delete`);
    expect(formBody(server.calls[0]?.body)).toEqual({ channel: 'C012AB3CD', ts: '1503435956.000247' });
    expect(envelope).toMatchObject({
      ok: true,
      data: { channel: 'C012AB3CD', ts: '1503435956.000247', deleted: true },
    });
  });

  it('maps cant_delete_message to permission_denied and message_not_found to not_found', async () => {
    server.use({
      [`POST ${api}/chat.delete`]: [
        { body: { ok: false, error: 'cant_delete_message' } },
        { body: { ok: false, error: 'message_not_found' } },
      ],
    });
    const input = { channel: 'C012AB3CD', ts: '1503435956.000247' };
    expect(await callSlackTool('slack_delete_message', input)).toMatchObject({
      error_type: 'permission_denied',
    });
    expect(await callSlackTool('slack_delete_message', input)).toMatchObject({ error_type: 'not_found' });
  });

  it('asks which message when the timestamp is missing', async () => {
    expect(await callSlackTool('slack_delete_message', { channel: 'C012AB3CD' })).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'ts', question: 'Which message should I delete (its timestamp)?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});
