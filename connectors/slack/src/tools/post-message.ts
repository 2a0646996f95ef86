import { defineTool, type ToolEffect } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { SlackClient } from '../slack-client.js';
import { messageTsField } from '../slack-fields.js';

/** `slack_post_message`: posts a message (or a thread reply) as the app. */
export function createSlackPostMessage(client: SlackClient, effect: ToolEffect = 'write') {
  return defineTool({
    name: 'slack_post_message',
    description:
      'Posts a message as the Slack app to a channel it is a member of, or replies in a thread when thread_ts is given. Everyone in the channel sees it; in channels shared with other organizations (is_ext_shared) people outside see it too.',
    input: z.object({
      channel: z
        .string()
        .min(1)
        .describe('Channel ID such as C0123456789 (preferred) or a channel name such as #general')
        .meta({ question: 'Which Slack channel should I post to?' }),
      text: z
        .string()
        .min(1)
        .max(40_000)
        .describe(
          'Message text in Slack mrkdwn (*bold*, _italic_, <https://example.com|links>, <@U0123> mentions)',
        )
        .meta({ question: 'What should the message say?' }),
      thread_ts: messageTsField(
        'Timestamp of the parent message to reply in its thread; omit for a new message',
      ).optional(),
      reply_broadcast: z.boolean().optional().describe('With thread_ts: also show the reply in the channel'),
    }),
    effect,
    requiredScopes: ['chat:write'],
    async execute(input, context) {
      const result = await client.call<{ channel: string; ts: string; message?: { thread_ts?: string } }>(
        context.credentials,
        'chat.postMessage',
        {
          arguments: {
            channel: input.channel,
            text: input.text,
            thread_ts: input.thread_ts,
            reply_broadcast: input.reply_broadcast,
          },
          signal: context.signal,
        },
      );
      if (!result.ok) return result.envelope;
      return success({
        channel: result.data.channel,
        ts: result.data.ts,
        thread_ts: result.data.message?.thread_ts ?? input.thread_ts ?? null,
      });
    },
  });
}
