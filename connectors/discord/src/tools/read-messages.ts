import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { DiscordClient } from '../discord-client.js';
import { snowflakeSchema } from '../discord-snowflake.js';

interface Message {
  id: string;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  author: { id: string; username: string; global_name?: string | null; bot?: boolean };
  attachments?: { filename: string; url: string }[];
  embeds?: unknown[];
  message_reference?: { message_id?: string };
}

/** `discord_read_messages`: the most recent messages of a channel. */
export function createDiscordReadMessages(client: DiscordClient) {
  return defineTool({
    name: 'discord_read_messages',
    description:
      "Reads the most recent messages of a Discord channel, newest first, with author, time and text. Text of other people's messages is empty unless the app has the Message Content intent. Pass `before` (a message id) to read older messages.",
    input: z.object({
      channel_id: snowflakeSchema('Id of the channel to read').meta({
        question: 'Which Discord channel should I read?',
      }),
      limit: z.number().int().min(1).max(100).default(20).describe('How many messages to return (1-100)'),
      before: snowflakeSchema('Only messages older than this message id').optional(),
    }),
    effect: 'read',
    requiredScopes: ['bot', 'VIEW_CHANNEL', 'READ_MESSAGE_HISTORY'],
    async execute(input, context) {
      const { data } = await client.request<Message[]>(context.credentials, {
        path: `/channels/${input.channel_id}/messages`,
        query: { limit: input.limit, before: input.before },
        requiredScopes: ['VIEW_CHANNEL', 'READ_MESSAGE_HISTORY'],
        signal: context.signal,
      });
      return success({
        messages: data.map((message) => ({
          id: message.id,
          author: message.author.global_name ?? message.author.username,
          author_id: message.author.id,
          author_is_bot: message.author.bot === true,
          content: message.content,
          sent_at: message.timestamp,
          edited: message.edited_timestamp !== null,
          reply_to: message.message_reference?.message_id ?? null,
          attachments: (message.attachments ?? []).map((attachment) => attachment.filename),
        })),
      });
    },
  });
}
