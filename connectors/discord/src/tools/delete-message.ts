import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { DiscordClient } from '../discord-client.js';
import { snowflakeSchema } from '../discord-snowflake.js';

/** `discord_delete_message`: deletes one message. */
export function createDiscordDeleteMessage(client: DiscordClient) {
  return defineTool({
    name: 'discord_delete_message',
    description:
      "Deletes one message from a Discord channel for everyone; it cannot be undone. The bot can always delete its own messages; other people's need the Manage Messages permission.",
    input: z.object({
      channel_id: snowflakeSchema('Id of the channel the message is in').meta({
        question: 'In which Discord channel is the message?',
      }),
      message_id: snowflakeSchema('Id of the message to delete').meta({
        question: 'Which message should I delete?',
      }),
      reason: z
        .string()
        .trim()
        .min(1)
        .max(512)
        .optional()
        .describe("Why it is deleted; shown in the server's audit log"),
    }),
    effect: 'destructive',
    requiredScopes: ['bot', 'VIEW_CHANNEL'],
    async execute(input, context) {
      await client.request(context.credentials, {
        method: 'DELETE',
        path: `/channels/${input.channel_id}/messages/${input.message_id}`,
        // Only other people's messages need it, and that is the only way this call is refused.
        requiredScopes: ['MANAGE_MESSAGES'],
        headers: input.reason ? { 'x-audit-log-reason': encodeURIComponent(input.reason) } : undefined,
        signal: context.signal,
      });
      return success({ deleted: true, channel_id: input.channel_id, message_id: input.message_id });
    },
  });
}
