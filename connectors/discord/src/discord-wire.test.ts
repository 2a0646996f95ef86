// Discord's own API description (discord-api-types/v10: its route builders and REST body/query
// types) as the oracle for every request this connector sends. Each recorded path must be one a
// `Routes` builder makes; tsc checks the field tables against the body and query types.
import { callToolAsSubject, createTestServer, type RecordedRequest, snapshotFor } from '@patchbay/testing';
import {
  type RESTGetAPIChannelMessagesQuery,
  type RESTGetAPICurrentUserGuildsQuery,
  type RESTPostAPIChannelMessageJSONBody,
  Routes,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { discord } from './discord-connector.js';
import {
  botUser,
  discordHeaders,
  guildChannels,
  guildList,
  ids,
  messageObject,
} from './fixtures/discord-responses.js';

type Names<T> = Partial<Record<T extends unknown ? keyof T : never, true>>;
const messageBody: Record<string, true> = {
  content: true,
  allowed_mentions: true,
  message_reference: true,
} satisfies Names<RESTPostAPIChannelMessageJSONBody>;
const queries: Record<string, Record<string, true>> = {
  [Routes.channelMessages(ids.general)]: {
    limit: true,
    before: true,
  } satisfies Names<RESTGetAPIChannelMessagesQuery>,
  [Routes.userGuilds()]: { limit: true } satisfies Names<RESTGetAPICurrentUserGuildsQuery>,
};
/** Every path the tools below may reach, as Discord's route builders spell them. */
const routes = new Set<string>([
  // Routes.user() percent-encodes the @ the path literally carries; both name the same route.
  decodeURIComponent(Routes.user('@me')),
  Routes.userGuilds(),
  Routes.guildChannels(ids.guild),
  Routes.channelMessages(ids.general),
  Routes.channelMessage(ids.general, ids.message),
]);

const api = 'https://discord.com/api/v10';
const server = createTestServer({
  [`GET ${api}/users/@me`]: { headers: discordHeaders(), body: botUser() },
  [`GET ${api}/users/@me/guilds`]: { headers: discordHeaders(), body: guildList() },
  [`GET ${api}/guilds/:guildId/channels`]: { headers: discordHeaders(), body: guildChannels() },
  [`GET ${api}/channels/:channelId/messages`]: { headers: discordHeaders(), body: [messageObject()] },
  [`POST ${api}/channels/:channelId/messages`]: {
    headers: discordHeaders(),
    body: messageObject({ id: ids.sentMessage, bot: true }),
  },
  [`DELETE ${api}/channels/:channelId/messages/:messageId`]: { status: 204, headers: discordHeaders() },
});
const credentials = { token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhJkLm.test-token-00000000000000000000' };

function expectDescribed(calls: readonly RecordedRequest[]) {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    const route = new URL(call.url).pathname.replace(/^\/api\/v10/, '');
    expect(routes.has(route), `${route} is not a route discord-api-types builds`).toBe(true);
    const query = call.method === 'GET' ? (queries[route] ?? {}) : {};
    expect(Object.keys(call.searchParams).filter((name) => !query[name])).toEqual([]);
    if (call.method === 'POST') {
      expect(Object.keys(call.body as object).filter((name) => !messageBody[name])).toEqual([]);
    }
  }
}

const toolCalls: [string, Record<string, unknown>][] = [
  ['discord_list_servers', { limit: 10 }],
  ['discord_list_channels', { server_id: ids.guild }],
  ['discord_read_messages', { channel_id: ids.general, limit: 5, before: ids.message }],
  ['discord_send_message', { channel_id: ids.general, content: 'Deploy finished', reply_to: ids.message }],
  ['discord_delete_message', { channel_id: ids.general, message_id: ids.message }],
];

describe('Discord requests against discord-api-types', () => {
  it.each(toolCalls)(
    '%s sends only a Discord route, body fields and query parameters',
    async (name, input) => {
      const tool = discord.tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      const envelope = await callToolAsSubject(tool, input, {
        snapshot: snapshotFor(discord, 'connected'),
        credentials,
        setupUrl: discord.setupUrl,
      });
      expect(envelope).toMatchObject({ ok: true });
      expectDescribed(server.calls);
    },
  );

  it('verify() reaches only Discord routes', async () => {
    await discord.verify(credentials);
    expectDescribed(server.calls);
  });
});
