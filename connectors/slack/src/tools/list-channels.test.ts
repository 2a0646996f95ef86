import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool, testToken } from '../fixtures/call-slack-tool.js';
import { conversationsList, slackHeaders } from '../fixtures/slack-responses.js';
import { createSlack } from '../slack-connector.js';

const api = 'https://slack.com/api';
const server = createTestServer({
  [`GET ${api}/conversations.list`]: { headers: slackHeaders(), body: conversationsList },
});

describe('slack_list_channels', () => {
  it('lists public channels with the bot token and flags externally shared ones', async () => {
    const envelope = await callSlackTool('slack_list_channels', {});
    const [call] = server.calls;
    expect(call?.method).toBe('GET');
    expect(call?.url.split('?')[0]).toBe(`${api}/conversations.list`);
    expect(call?.headers.authorization).toBe(`Bearer ${testToken}`);
    expect(call?.searchParams).toEqual({ types: 'public_channel', exclude_archived: 'true', limit: '200' });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        channels: [
          {
            id: 'C012AB3CD',
            name: 'general',
            is_private: false,
            is_member: true,
            is_archived: false,
            is_ext_shared: false,
            num_members: 4,
            topic: 'Company-wide announcements and work-based matters',
          },
          { id: 'C061EG9T2', name: 'partner-acme', is_member: false, is_ext_shared: true, topic: null },
        ],
        next_cursor: 'dGVhbTpDMDYxRkE1UEI=',
      },
    });
  });

  it('asks for private channels and the next page when told to', async () => {
    await callSlackTool('slack_list_channels', {
      include_private: true,
      cursor: 'dGVhbTpDMDYxRkE1UEI=',
      limit: 50,
    });
    expect(server.calls[0]?.searchParams).toEqual({
      types: 'public_channel,private_channel',
      exclude_archived: 'true',
      limit: '50',
      cursor: 'dGVhbTpDMDYxRkE1UEI=',
    });
  });

  it('reports no next page when Slack sends an empty cursor', async () => {
    server.use({
      [`GET ${api}/conversations.list`]: {
        headers: slackHeaders(),
        body: { ...conversationsList, response_metadata: { next_cursor: '' } },
      },
    });
    expect(await callSlackTool('slack_list_channels', {})).toMatchObject({
      ok: true,
      data: { next_cursor: null },
    });
  });

  it('sends requests to a proxy base URL with a custom fetch', async () => {
    server.use({ 'GET https://slack-proxy.internal/api/conversations.list': { body: conversationsList } });
    const seen: string[] = [];
    const proxied = createSlack({
      baseUrl: 'https://slack-proxy.internal/api/',
      fetch: (url, init) => {
        seen.push(String(url).split('?')[0]!);
        return globalThis.fetch(url, init);
      },
    });
    const envelope = await callSlackTool('slack_list_channels', {}, { connector: proxied });
    expect(envelope.ok).toBe(true);
    expect(seen).toEqual(['https://slack-proxy.internal/api/conversations.list']);
  });
});
