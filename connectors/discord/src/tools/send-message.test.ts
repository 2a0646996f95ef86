import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { discord } from '../discord-connector.js';
import {
  discordError,
  discordFailures,
  discordHeaders,
  ids,
  messageObject,
} from '../fixtures/discord-responses.js';

const server = createTestServer({
  'POST https://discord.com/api/v10/channels/:channelId/messages': {
    headers: discordHeaders(),
    body: messageObject({ id: ids.sentMessage, content: 'Deploy finished', bot: true }),
  },
});
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };
const sendMessage = discord.tools.find((tool) => tool.name === 'discord_send_message')!;
const call = (input: unknown, scopes?: string[]) =>
  callToolAsSubject(sendMessage, input, {
    snapshot: snapshotFor(discord, 'connected', { scopes }),
    credentials,
    setupUrl: discord.setupUrl,
  });

describe('discord_send_message', () => {
  it('is destructive: it reaches everyone in the channel', () => {
    expect(sendMessage.effect).toBe('destructive');
  });

  it('posts the text with mentions switched off', async () => {
    const envelope = await call({ channel_id: ids.general, content: 'Deploy finished @everyone' });
    expect(server.calls).toHaveLength(1);
    const [request] = server.calls;
    expect(request).toMatchObject({
      method: 'POST',
      url: `https://discord.com/api/v10/channels/${ids.general}/messages`,
    });
    expect(request!.headers.authorization).toBe(`Bot ${credentials.token}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      content: 'Deploy finished @everyone',
      allowed_mentions: { parse: [], replied_user: false },
    });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'discord_send_message' },
      data: { id: ids.sentMessage, channel_id: ids.general, sent_at: '2026-04-02T16:30:00.123000+00:00' },
    });
  });

  it('replies to a message and lets user mentions ping when asked', async () => {
    await call({
      channel_id: ids.general,
      content: '<@1100000000000000002> done',
      reply_to: ids.message,
      mention_users: true,
    });
    expect(server.calls[0]!.body).toEqual({
      content: '<@1100000000000000002> done',
      allowed_mentions: { parse: ['users'], replied_user: false },
      message_reference: { message_id: ids.message, fail_if_not_exists: false },
    });
  });

  it('asks for the channel and the text when missing, without a request', async () => {
    expect(await call({})).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [
        { field: 'channel_id', question: 'Which Discord channel should I post to?' },
        { field: 'content', question: 'What should the message say?' },
      ],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('refuses text over 2,000 characters without a request', async () => {
    expect(await call({ channel_id: ids.general, content: 'x'.repeat(2001) })).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
    });
    expect(server.calls).toHaveLength(0);
  });

  it('sends nothing when SEND_MESSAGES is not granted', async () => {
    const envelope = await call({ channel_id: ids.general, content: 'hi' }, [
      'bot',
      'VIEW_CHANNEL',
      'READ_MESSAGE_HISTORY',
    ]);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['SEND_MESSAGES'],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('names SEND_MESSAGES on Missing Permissions, even when the bucket is exhausted', async () => {
    server.use({
      'POST https://discord.com/api/v10/channels/:channelId/messages': {
        ...discordFailures.forbidden,
        headers: discordHeaders({ 'x-ratelimit-remaining': '0' }),
      },
    });
    expect(await call({ channel_id: ids.general, content: 'hi' })).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['SEND_MESSAGES'],
      setup_url: discord.setupUrl,
    });
  });

  it("takes the wait from the 429 body's retry_after, rounded up", async () => {
    server.use({
      'POST https://discord.com/api/v10/channels/:channelId/messages': {
        status: 429,
        headers: discordHeaders({ 'x-ratelimit-remaining': '0', 'x-ratelimit-scope': 'shared' }),
        body: { message: 'The resource is being rate limited.', retry_after: 3.2, global: false },
      },
    });
    expect(await call({ channel_id: ids.general, content: 'hi' })).toMatchObject({
      ok: false,
      error_type: 'rate_limited',
      retry_after_s: 4,
    });
  });

  it('treats the channel write limit (20028) as rate limited', async () => {
    server.use({
      'POST https://discord.com/api/v10/channels/:channelId/messages': {
        status: 429,
        headers: discordHeaders(),
        body: {
          ...discordError(20028, 'The channel you are writing has hit the write rate limit'),
          retry_after: 9,
          global: false,
        },
      },
    });
    expect(await call({ channel_id: ids.general, content: 'hi' })).toMatchObject({
      ok: false,
      error_type: 'rate_limited',
      retry_after_s: 9,
    });
  });

  it('turns an Invalid Form Body (50035) into invalid_arguments naming the field', async () => {
    server.use({
      'POST https://discord.com/api/v10/channels/:channelId/messages': {
        status: 400,
        headers: discordHeaders(),
        body: discordError(50035, 'Invalid Form Body', {
          message_reference: {
            _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }],
          },
        }),
      },
    });
    const envelope = await call({ channel_id: ids.general, content: 'hi', reply_to: ids.message });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect((envelope as { user_message: string }).user_message).toContain(
      'Invalid Form Body: message_reference: Unknown message',
    );
  });

  it('maps Unknown Channel (10003) to not_found', async () => {
    server.use({
      'POST https://discord.com/api/v10/channels/:channelId/messages': discordFailures.not_found,
    });
    expect(await call({ channel_id: ids.general, content: 'hi' })).toMatchObject({
      ok: false,
      error_type: 'not_found',
    });
  });
});
