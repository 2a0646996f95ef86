import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createDiscord } from './discord-connector.js';
import { botUser, guildList } from './fixtures/discord-responses.js';

const server = createTestServer();
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };

describe('discord client', () => {
  it('sends requests to a custom baseUrl with extra headers', async () => {
    server.use({ 'GET https://discord-proxy.test/api/v10/users/@me/guilds': { body: guildList() } });
    const proxied = createDiscord({
      baseUrl: 'https://discord-proxy.test/api/v10/',
      headers: { 'x-trace': 'abc' },
    });
    const listServers = proxied.tools.find((tool) => tool.name === 'discord_list_servers')!;
    const envelope = await callToolAsSubject(
      listServers,
      {},
      { snapshot: snapshotFor(proxied, 'connected'), credentials },
    );
    expect(envelope).toMatchObject({ ok: true });
    expect(server.calls[0]!.headers).toMatchObject({
      'x-trace': 'abc',
      authorization: `Bot ${credentials.token}`,
    });
  });

  it('uses a custom fetch for every request', async () => {
    const seen: string[] = [];
    const custom = createDiscord({
      fetch: async (input) => {
        const url = String(input);
        seen.push(url);
        return Response.json(url.endsWith('/guilds?limit=200') ? guildList() : botUser());
      },
    });
    await expect(custom.verify(credentials)).resolves.toMatchObject({ valid: true });
    expect(seen).toEqual([
      'https://discord.com/api/v10/users/@me',
      'https://discord.com/api/v10/users/@me/guilds?limit=200',
    ]);
    expect(server.calls).toHaveLength(0);
  });
});
