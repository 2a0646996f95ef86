import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool, testToken } from '../fixtures/call-slack-tool.js';
import {
  conversationsHistory,
  conversationsList,
  slackHeaders,
  userByEmail,
} from '../fixtures/slack-responses.js';
import { createSlack } from '../slack-connector.js';

const api = 'https://slack.com/api';
const server = createTestServer({
  [`GET ${api}/conversations.list`]: { headers: slackHeaders(), body: conversationsList },
  [`GET ${api}/conversations.history`]: { headers: slackHeaders(), body: conversationsHistory },
  [`GET ${api}/users.lookupByEmail`]: { headers: slackHeaders(), body: userByEmail },
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

describe('slack_find_user_by_email', () => {
  it('looks the person up by email', async () => {
    const envelope = await callSlackTool('slack_find_user_by_email', {
      email: 'spengler@ghostbusters.example.com',
    });
    expect(server.calls[0]?.searchParams).toEqual({ email: 'spengler@ghostbusters.example.com' });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        id: 'W012A3CDE',
        name: 'spengler',
        real_name: 'Egon Spengler',
        display_name: 'spengler',
        title: 'Parapsychologist',
        tz: 'America/Los_Angeles',
        is_bot: false,
        deleted: false,
      },
    });
  });

  it('asks for the email address when it is missing', async () => {
    expect(await callSlackTool('slack_find_user_by_email', {})).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'email', question: 'What is the email address of the person in Slack?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('maps users_not_found to not_found', async () => {
    server.use({ [`GET ${api}/users.lookupByEmail`]: { body: { ok: false, error: 'users_not_found' } } });
    expect(await callSlackTool('slack_find_user_by_email', { email: 'nobody@example.com' })).toMatchObject({
      ok: false,
      error_type: 'not_found',
      user_message: 'No active Slack user has that email address.',
    });
  });
});
