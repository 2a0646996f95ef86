import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  verifyFailure,
} from '@patchbay/connector';
import { createDiscordClient } from './discord-client.js';
import { type DiscordPermission, permissionNames } from './discord-scopes.js';
import { createDiscordTools } from './tools/index.js';

/** Settings of {@link createDiscord}: `baseUrl`, `fetch`, `headers`. */
export type DiscordSettings = ConnectorSettings;

interface CurrentUser {
  id: string;
  username: string;
  discriminator?: string;
  bot?: boolean;
}

/** Creates the Discord connector (a bot token, Discord REST API v10). */
export function createDiscord(settings: DiscordSettings = {}): Connector {
  const client = createDiscordClient(settings);
  return defineConnector({
    id: 'discord',
    name: 'Discord',
    description: 'Discord is a chat platform of servers (guilds) with text and voice channels.',
    auth: {
      kind: 'bearer',
      scopes: [
        { name: 'bot', description: 'The app has a bot user that can be added to servers (OAuth2 scope)' },
        { name: 'VIEW_CHANNEL', description: 'See channels (bot permission)' },
        { name: 'READ_MESSAGE_HISTORY', description: 'Read earlier messages of a channel (bot permission)' },
        { name: 'SEND_MESSAGES', description: 'Post messages in channels (bot permission)' },
        { name: 'MANAGE_MESSAGES', description: "Delete other people's messages (bot permission)" },
      ],
      fields: [
        {
          name: 'token',
          description: 'Bot token of a Discord application (Developer Portal → Bot → Reset Token)',
          secret: true,
          env: 'DISCORD_BOT_TOKEN',
        },
      ],
    },
    capabilities: ['list servers and channels', 'read channel messages', 'post messages', 'delete messages'],
    wouldEnable: [
      'Catch up on Discord channels and post updates or answers from chat',
      'Clean up messages the bot posted',
    ],
    setupUrl: 'https://discord.com/developers/applications',
    docsUrl: 'https://discord.com/developers/docs/reference',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: createDiscordTools(client),
    async verify(credentials, options) {
      try {
        const { data: user } = await client.request<CurrentUser>(credentials, {
          path: '/users/@me',
          signal: options?.signal,
        });
        // Bot permissions are granted per server; the union over the servers the bot is in is what
        // the token can do at best (channel overwrites may still refuse, which tools report).
        const { data: guilds } = await client.request<{ permissions?: string }[]>(credentials, {
          path: '/users/@me/guilds',
          query: { limit: 200 },
          signal: options?.signal,
        });
        const granted = new Set<DiscordPermission>();
        for (const guild of guilds ?? [])
          for (const name of permissionNames(guild.permissions)) granted.add(name);
        const discriminator =
          user.discriminator && user.discriminator !== '0' ? `#${user.discriminator}` : '';
        return {
          valid: true,
          scopes: ['bot', ...[...granted].sort()],
          identity: `${user.username}${discriminator}`,
        };
      } catch (error) {
        return verifyFailure(error);
      }
    },
  });
}

/** The Discord connector with default settings. */
export const discord = createDiscord();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<DiscordSettings> = createDiscord;
