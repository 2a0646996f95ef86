import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool } from '../fixtures/call-slack-tool.js';
import { conversationsHistory, slackHeaders } from '../fixtures/slack-responses.js';

const api = 'https://slack.com/api';
const server = createTestServer({
  [`GET ${api}/conversations.history`]: { headers: slackHeaders(), body: conversationsHistory },
});

describe('slack_get_channel_history', () => {
  it('reads the channel with paging arguments and returns compact messages', async () => {
    const envelope = await callSlackTool('slack_get_channel_history', {
      channel: 'C012AB3CD',
      limit: 2,
      oldest: '1512000000.000000',
    });
    expect(server.calls[0]?.url.split('?')[0]).toBe(`${api}/conversations.history`);
    expect(server.calls[0]?.searchParams).toEqual({
      channel: 'C012AB3CD',
      limit: '2',
      oldest: '1512000000.000000',
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        messages: [
          {
            ts: '1512085950.000216',
            user: 'U012AB3CDE',
            text: expect.stringContaining('punny'),
            reply_count: 0,
          },
          { ts: '1512104434.000490', thread_ts: '1512104434.000490', reply_count: 3 },
        ],
        has_more: true,
        next_cursor: 'bmV4dF90czoxNTEyMDg1ODYxMDAwNTQz',
      },
    });
  });

  it('asks which channel to read when none is given', async () => {
    const envelope = await callSlackTool('slack_get_channel_history', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'channel', question: 'Which Slack channel should I read?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('rejects a timestamp that is not Slack’s seconds.micro form before any request', async () => {
    const envelope = await callSlackTool('slack_get_channel_history', {
      channel: 'C012AB3CD',
      oldest: 'yesterday',
    });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });
});
