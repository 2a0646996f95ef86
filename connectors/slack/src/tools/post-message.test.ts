import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool, formBody, testToken } from '../fixtures/call-slack-tool.js';
import { postedMessage, slackHeaders } from '../fixtures/slack-responses.js';
import { createSlack, slack } from '../slack-connector.js';

const api = 'https://slack.com/api';
const server = createTestServer({
  [`POST ${api}/chat.postMessage`]: { headers: slackHeaders(), body: postedMessage },
});

describe('slack_post_message', () => {
  it('posts channel and text as a form with the bot token', async () => {
    const envelope = await callSlackTool('slack_post_message', {
      channel: 'C012AB3CD',
      text: 'Deploy finished',
    });
    const [call] = server.calls;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe(`${api}/chat.postMessage`);
    expect(call?.headers.authorization).toBe(`Bearer ${testToken}`);
    expect(call?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(formBody(call?.body)).toEqual({ channel: 'C012AB3CD', text: 'Deploy finished' });
    expect(envelope).toMatchObject({
      ok: true,
      data: { channel: 'C012AB3CD', ts: '1503435956.000247', thread_ts: null },
    });
  });

  it('replies in a thread and can broadcast the reply', async () => {
    const envelope = await callSlackTool('slack_post_message', {
      channel: 'C012AB3CD',
      text: 'Fixed in #1348',
      thread_ts: '1512104434.000490',
      reply_broadcast: true,
    });
    expect(formBody(server.calls[0]?.body)).toEqual({
      channel: 'C012AB3CD',
      text: 'Fixed in #1348',
      thread_ts: '1512104434.000490',
      reply_broadcast: 'true',
    });
    expect(envelope).toMatchObject({ ok: true, data: { thread_ts: '1512104434.000490' } });
  });

  it('asks which channel and what to say, without a request', async () => {
    const envelope = await callSlackTool('slack_post_message', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [
        { field: 'channel', question: 'Which Slack channel should I post to?' },
        { field: 'text', question: 'What should the message say?' },
      ],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('is a write by default and destructive when the settings say posts reach outsiders', () => {
    const effectOf = (connector: typeof slack) =>
      connector.tools.find((tool) => tool.name === 'slack_post_message')?.effect;
    expect(effectOf(slack)).toBe('write');
    expect(effectOf(createSlack({ postMessageEffect: 'destructive' }))).toBe('destructive');
  });

  it('tells the user to invite the app when it is not in the channel', async () => {
    server.use({ [`POST ${api}/chat.postMessage`]: { body: { ok: false, error: 'not_in_channel' } } });
    const envelope = await callSlackTool('slack_post_message', { channel: 'C061EG9T2', text: 'Hello' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      connector: 'slack',
      setup_url: 'https://api.slack.com/apps',
    });
    expect((envelope as { user_message: string }).user_message).toContain('/invite');
  });

  it('maps is_archived to conflict', async () => {
    server.use({ [`POST ${api}/chat.postMessage`]: { body: { ok: false, error: 'is_archived' } } });
    expect(await callSlackTool('slack_post_message', { channel: 'C012AB3CD', text: 'Hello' })).toMatchObject({
      ok: false,
      error_type: 'conflict',
      retryable: false,
    });
  });
});
