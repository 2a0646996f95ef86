import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { DiscordClient } from '../discord-client.js';
import { snowflakeSchema } from '../discord-snowflake.js';

/** `discord_send_message`: posts a message to a channel, seen by everyone in it. */
export function createDiscordSendMessage(client: DiscordClient) {
  return defineTool({
    name: 'discord_send_message',
    description:
      'Posts a message as the bot to a Discord channel, where everyone in the channel sees it. Mentions of @everyone, @here and roles never ping; user mentions ping only with mention_users.',
    input: z.object({
      channel_id: snowflakeSchema('Id of the channel to post to').meta({
        question: 'Which Discord channel should I post to?',
      }),
      content: z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .describe('The message text (Discord Markdown, at most 2,000 characters)')
        .meta({ question: 'What should the message say?' }),
      reply_to: snowflakeSchema('Id of a message in the same channel to reply to').optional(),
      mention_users: z
        .boolean()
        .default(false)
        .describe('Let <@user> mentions in the text notify those users'),
    }),
    effect: 'destructive',
    requiredScopes: ['bot', 'VIEW_CHANNEL', 'SEND_MESSAGES'],
    async execute(input, context) {
      const { data } = await client.request<{ id: string; channel_id: string; timestamp: string }>(
        context.credentials,
        {
          method: 'POST',
          path: `/channels/${input.channel_id}/messages`,
          requiredScopes: ['SEND_MESSAGES'],
          json: {
            content: input.content,
            // An agent must not ping a whole server by quoting "@everyone".
            allowed_mentions: { parse: input.mention_users ? ['users'] : [], replied_user: false },
            message_reference: input.reply_to
              ? { message_id: input.reply_to, fail_if_not_exists: false }
              : undefined,
          },
          signal: context.signal,
        },
      );
      return success({ id: data.id, channel_id: data.channel_id, sent_at: data.timestamp });
    },
  });
}
