import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { DiscordClient } from '../discord-client.js';
import { snowflakeSchema } from '../discord-snowflake.js';

interface Channel {
  id: string;
  type: number;
  name?: string | null;
  topic?: string | null;
  position?: number;
  parent_id?: string | null;
  nsfw?: boolean;
}

// https://discord.com/developers/docs/resources/channel#channel-object-channel-types
const channelTypes: Record<number, string> = {
  0: 'text',
  2: 'voice',
  4: 'category',
  5: 'announcement',
  10: 'announcement_thread',
  11: 'public_thread',
  12: 'private_thread',
  13: 'stage',
  15: 'forum',
  16: 'media',
};

/** `discord_list_channels`: the channels of one server. */
export function createDiscordListChannels(client: DiscordClient) {
  return defineTool({
    name: 'discord_list_channels',
    description:
      'Lists the channels of a Discord server with their ids, names, types and categories, in the order Discord shows them. Use a text channel id to read or send messages.',
    input: z.object({
      server_id: snowflakeSchema('Id of the Discord server (guild)').meta({
        question: 'Which Discord server do you mean?',
      }),
    }),
    effect: 'read',
    // Listing needs only membership; channels hidden from the bot are listed too.
    requiredScopes: ['bot'],
    async execute(input, context) {
      const { data } = await client.request<Channel[]>(context.credentials, {
        path: `/guilds/${input.server_id}/channels`,
        signal: context.signal,
      });
      const channels = [...data].sort((left, right) => (left.position ?? 0) - (right.position ?? 0));
      const categories = new Map(
        channels.filter((channel) => channel.type === 4).map((channel) => [channel.id, channel.name]),
      );
      return success({
        channels: channels
          .filter((channel) => channel.type !== 4)
          .map((channel) => ({
            id: channel.id,
            name: channel.name ?? null,
            type: channelTypes[channel.type] ?? `type_${channel.type}`,
            topic: channel.topic ?? null,
            category: channel.parent_id ? (categories.get(channel.parent_id) ?? null) : null,
          })),
      });
    },
  });
}
