import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { discord } from '../discord-connector.js';
import { discordFailures, discordHeaders, ids, messageObject } from '../fixtures/discord-responses.js';

const server = createTestServer({
  'GET https://discord.com/api/v10/channels/:channelId/messages': {
    headers: discordHeaders(),
    body: [
      messageObject({ id: ids.message, content: 'Looks good', replyTo: ids.olderMessage, edited: true }),
      messageObject({
        id: ids.olderMessage,
        content: 'Deploy finished',
        bot: true,
        attachments: [
          {
            id: '1500000000000000001',
            filename: 'report.txt',
            size: 120,
            url: 'https://cdn.discordapp.com/attachments/1/2/report.txt',
            proxy_url: 'https://media.discordapp.net/attachments/1/2/report.txt',
            content_type: 'text/plain; charset=utf-8',
          },
        ],
      }),
    ],
  },
});
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };
const readMessages = discord.tools.find((tool) => tool.name === 'discord_read_messages')!;
const call = (input: unknown) =>
  callToolAsSubject(readMessages, input, {
    snapshot: snapshotFor(discord, 'connected'),
    credentials,
    setupUrl: discord.setupUrl,
  });

describe('discord_read_messages', () => {
  it('reads recent messages newest first', async () => {
    const envelope = await call({ channel_id: ids.general, limit: 2 });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({
      method: 'GET',
      url: `https://discord.com/api/v10/channels/${ids.general}/messages?limit=2`,
    });
    expect(server.calls[0]!.headers.authorization).toBe(`Bot ${credentials.token}`);
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'discord_read_messages' },
      data: {
        messages: [
          {
            id: ids.message,
            author: 'Ada',
            author_id: ids.user,
            author_is_bot: false,
            content: 'Looks good',
            sent_at: '2026-04-02T16:30:00.123000+00:00',
            edited: true,
            reply_to: ids.olderMessage,
            attachments: [],
          },
          {
            id: ids.olderMessage,
            author: 'Patchbay',
            author_id: ids.bot,
            author_is_bot: true,
            content: 'Deploy finished',
            sent_at: '2026-04-02T16:30:00.123000+00:00',
            edited: false,
            reply_to: null,
            attachments: ['report.txt'],
          },
        ],
      },
    });
  });

  it('pages back with before', async () => {
    await call({ channel_id: ids.general, before: ids.message });
    expect(server.calls[0]!.searchParams).toEqual({ limit: '20', before: ids.message });
  });

  it('names the permissions reading needs on Missing Permissions (50013)', async () => {
    server.use({ 'GET https://discord.com/api/v10/channels/:channelId/messages': discordFailures.forbidden });
    expect(await call({ channel_id: ids.general })).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['VIEW_CHANNEL', 'READ_MESSAGE_HISTORY'],
    });
  });

  it('names VIEW_CHANNEL on Missing Access (50001) to a hidden channel', async () => {
    server.use({
      'GET https://discord.com/api/v10/channels/:channelId/messages': {
        ...discordFailures.forbidden,
        body: { message: 'Missing Access', code: 50001 },
      },
    });
    expect(await call({ channel_id: ids.general })).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['VIEW_CHANNEL'],
    });
  });

  it('is not gated on SEND_MESSAGES: a read-only bot can read', async () => {
    const envelope = await callToolAsSubject(
      readMessages,
      { channel_id: ids.general },
      {
        snapshot: snapshotFor(discord, 'connected', {
          scopes: ['bot', 'VIEW_CHANNEL', 'READ_MESSAGE_HISTORY'],
        }),
        credentials,
      },
    );
    expect(envelope).toMatchObject({ ok: true });
  });
});
