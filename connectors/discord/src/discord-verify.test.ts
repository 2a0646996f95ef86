import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { discord } from './discord-connector.js';
import {
  botUser,
  discordFailures,
  discordHeaders,
  guildList,
  ids,
  partialGuild,
  readOnlyPermissions,
} from './fixtures/discord-responses.js';

const server = createTestServer({
  'GET https://discord.com/api/v10/users/@me': { headers: discordHeaders(), body: botUser() },
  'GET https://discord.com/api/v10/users/@me/guilds': { headers: discordHeaders(), body: guildList() },
});
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };

describe('discord verify', () => {
  it('checks the bot token with GET /users/@me and reports the permissions it has in its servers', async () => {
    await expect(discord.verify(credentials)).resolves.toEqual({
      valid: true,
      // The second server grants ADMINISTRATOR, which implies every permission.
      scopes: ['bot', 'MANAGE_MESSAGES', 'READ_MESSAGE_HISTORY', 'SEND_MESSAGES', 'VIEW_CHANNEL'],
      identity: 'Patchbay#4821',
    });
    expect(server.calls.map((request) => request.url)).toEqual([
      'https://discord.com/api/v10/users/@me',
      'https://discord.com/api/v10/users/@me/guilds?limit=200',
    ]);
    for (const request of server.calls)
      expect(request.headers.authorization).toBe(`Bot ${credentials.token}`);
  });

  it('reports a read-only bot without SEND_MESSAGES, so posting stays gated', async () => {
    server.use({
      'GET https://discord.com/api/v10/users/@me/guilds': {
        headers: discordHeaders(),
        body: [partialGuild(ids.guild, 'Acme', readOnlyPermissions)],
      },
    });
    const result = await discord.verify(credentials);
    expect(result).toEqual({
      valid: true,
      scopes: ['bot', 'READ_MESSAGE_HISTORY', 'VIEW_CHANNEL'],
      identity: 'Patchbay#4821',
    });
    server.reset();
    const sendMessage = discord.tools.find((tool) => tool.name === 'discord_send_message')!;
    const envelope = await callToolAsSubject(
      sendMessage,
      { channel_id: ids.general, content: 'hi' },
      {
        snapshot: snapshotFor(discord, 'connected', { scopes: result.valid ? result.scopes : [] }),
        credentials,
      },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['SEND_MESSAGES'],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('reports only the bot scope while the bot is in no server', async () => {
    server.use({
      'GET https://discord.com/api/v10/users/@me/guilds': { headers: discordHeaders(), body: [] },
    });
    await expect(discord.verify(credentials)).resolves.toMatchObject({ valid: true, scopes: ['bot'] });
  });

  it('shows a bot without a discriminator by its username', async () => {
    server.use({
      'GET https://discord.com/api/v10/users/@me': {
        headers: discordHeaders(),
        body: { ...botUser(), discriminator: '0' },
      },
    });
    await expect(discord.verify(credentials)).resolves.toMatchObject({ identity: 'Patchbay' });
  });

  it('reports a reset token (401: Unauthorized) as invalid_credentials', async () => {
    server.use({ 'GET https://discord.com/api/v10/users/@me': discordFailures.unauthorized });
    await expect(discord.verify(credentials)).resolves.toEqual({
      valid: false,
      reason: 'invalid_credentials',
      message: 'The service rejected these credentials.',
    });
    expect(server.calls).toHaveLength(1);
  });

  it('reports a global rate limit with the wait from the body', async () => {
    server.use({
      'GET https://discord.com/api/v10/users/@me': {
        status: 429,
        headers: {
          'content-type': 'application/json',
          'x-ratelimit-global': 'true',
          'x-ratelimit-scope': 'global',
        },
        body: { message: 'You are being rate limited.', retry_after: 1.5, global: true },
      },
    });
    await expect(discord.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'rate_limited',
      retryAfterS: 2,
    });
  });
});
