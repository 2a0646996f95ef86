import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { DiscordClient } from '../discord-client.js';
import { permissionNames } from '../discord-scopes.js';

interface PartialGuild {
  id: string;
  name: string;
  owner?: boolean;
  permissions?: string;
}

/** `discord_list_servers`: the servers (guilds) the bot has been added to. */
export function createDiscordListServers(client: DiscordClient) {
  return defineTool({
    name: 'discord_list_servers',
    description:
      'Lists the Discord servers the bot has been added to, with their ids and the bot permissions there. Use a server id with discord_list_channels.',
    input: z.object({
      limit: z.number().int().min(1).max(200).default(100).describe('How many servers to return (1-200)'),
    }),
    effect: 'read',
    requiredScopes: ['bot'],
    async execute(input, context) {
      const { data } = await client.request<PartialGuild[]>(context.credentials, {
        path: '/users/@me/guilds',
        query: { limit: input.limit },
        signal: context.signal,
      });
      return success({
        servers: data.map((guild) => ({
          id: guild.id,
          name: guild.name,
          bot_permissions: permissionNames(guild.permissions),
        })),
      });
    },
  });
}
