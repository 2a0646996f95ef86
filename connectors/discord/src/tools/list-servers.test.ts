import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { discord } from '../discord-connector.js';
import { discordHeaders, guildList, ids } from '../fixtures/discord-responses.js';

const server = createTestServer({
  'GET https://discord.com/api/v10/users/@me/guilds': { headers: discordHeaders(), body: guildList() },
});
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };
const listServers = discord.tools.find((tool) => tool.name === 'discord_list_servers')!;

describe('discord_list_servers', () => {
  it('lists the servers the bot is in with its permissions there', async () => {
    const envelope = await callToolAsSubject(
      listServers,
      {},
      { snapshot: snapshotFor(discord, 'connected'), credentials },
    );
    expect(server.calls).toHaveLength(1);
    const [request] = server.calls;
    expect(request).toMatchObject({
      method: 'GET',
      url: 'https://discord.com/api/v10/users/@me/guilds?limit=100',
    });
    expect(request!.headers.authorization).toBe(`Bot ${credentials.token}`);
    expect(request!.headers['user-agent']).toMatch(/^DiscordBot \(https:\/\/\S+, [\d.]+\)$/);
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'discord_list_servers' },
      data: {
        servers: [
          {
            id: ids.guild,
            name: 'Acme',
            bot_permissions: ['VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY'],
          },
          {
            id: ids.otherGuild,
            name: 'Acme Staff',
            bot_permissions: ['VIEW_CHANNEL', 'SEND_MESSAGES', 'MANAGE_MESSAGES', 'READ_MESSAGE_HISTORY'],
          },
        ],
      },
    });
  });

  it('accepts a token pasted with its "Bot " prefix without doubling it', async () => {
    await callToolAsSubject(
      listServers,
      {},
      { snapshot: snapshotFor(discord, 'connected'), credentials: { token: `Bot ${credentials.token}` } },
    );
    expect(server.calls[0]!.headers.authorization).toBe(`Bot ${credentials.token}`);
  });
});
