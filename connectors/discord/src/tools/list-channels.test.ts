import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { discord } from '../discord-connector.js';
import { discordError, discordHeaders, guildChannels, ids } from '../fixtures/discord-responses.js';

const server = createTestServer({
  'GET https://discord.com/api/v10/guilds/:guildId/channels': {
    headers: discordHeaders(),
    body: guildChannels(),
  },
});
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };
const listChannels = discord.tools.find((tool) => tool.name === 'discord_list_channels')!;
const call = (input: unknown) =>
  callToolAsSubject(listChannels, input, {
    snapshot: snapshotFor(discord, 'connected'),
    credentials,
    setupUrl: discord.setupUrl,
  });

describe('discord_list_channels', () => {
  it('lists channels in display order with their category, leaving categories out', async () => {
    const envelope = await call({ server_id: ids.guild });
    expect(server.calls[0]).toMatchObject({
      method: 'GET',
      url: `https://discord.com/api/v10/guilds/${ids.guild}/channels`,
    });
    expect(server.calls[0]!.headers.authorization).toBe(`Bot ${credentials.token}`);
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        channels: [
          {
            id: ids.general,
            name: 'general',
            type: 'text',
            topic: 'Anything goes',
            category: 'Text Channels',
          },
          {
            id: ids.announcements,
            name: 'announcements',
            type: 'announcement',
            topic: null,
            category: 'Text Channels',
          },
          { id: ids.voice, name: 'Lounge', type: 'voice', topic: null, category: 'Text Channels' },
        ],
      },
    });
  });

  it('asks which server when none is given, and rejects a server name, without a request', async () => {
    expect(await call({})).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'server_id', question: 'Which Discord server do you mean?' }],
    });
    expect(await call({ server_id: 'Acme' })).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });

  it('maps Missing Access (50001) from a server the bot is not in to permission_denied', async () => {
    server.use({
      'GET https://discord.com/api/v10/guilds/:guildId/channels': {
        status: 403,
        headers: discordHeaders(),
        body: discordError(50001, 'Missing Access'),
      },
    });
    const envelope = await call({ server_id: ids.guild });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      setup_url: discord.setupUrl,
    });
    expect(envelope).not.toHaveProperty('missing_scopes');
    expect((envelope as { user_message: string }).user_message).toContain('Missing Access');
  });

  it('maps Unknown Guild (10004) to not_found', async () => {
    server.use({
      'GET https://discord.com/api/v10/guilds/:guildId/channels': {
        status: 404,
        headers: discordHeaders(),
        body: discordError(10004, 'Unknown Guild'),
      },
    });
    const envelope = await call({ server_id: ids.guild });
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found' });
    expect((envelope as { user_message: string }).user_message).toContain('Unknown Guild');
  });
});
