import { defineTool } from '@patchbay/connector';
import { failure, success } from '@patchbay/envelope';
import { z } from 'zod';
import type { SlackClient } from '../slack-client.js';
import { channelIdField, messageTsField } from '../slack-fields.js';
import { channelAccess } from '../slack-scopes.js';

/** The fields of a Slack message event the tool reads. */
interface SlackMessage {
  type: string;
  subtype?: string;
  ts: string;
  user?: string;
  bot_id?: string;
  text?: string;
  thread_ts?: string;
  reply_count?: number;
}

/** `slack_get_channel_history`: reads recent messages of a channel, newest first. */
export function createSlackGetChannelHistory(client: SlackClient) {
  return defineTool({
    name: 'slack_get_channel_history',
    description:
      'Reads recent messages of a Slack channel the app is a member of (public with channels:history, private with groups:history), newest first, with author user IDs, text, timestamps and thread reply counts.',
    input: z.object({
      channel: channelIdField('Which Slack channel should I read?'),
      limit: z.number().int().min(1).max(200).default(20).describe('How many messages to return (1-200)'),
      oldest: messageTsField(
        'Only messages after this Slack timestamp (Unix seconds, e.g. 1512085950.000216)',
      ).optional(),
      latest: messageTsField(
        'Only messages before this Slack timestamp (Unix seconds, e.g. 1512085950.000216)',
      ).optional(),
      cursor: z
        .string()
        .min(1)
        .optional()
        .describe('next_cursor from a previous call, to get older messages'),
    }),
    effect: 'read',
    // channels:history or groups:history, either enough (Slack checks the one of the channel's
    // kind): checked below, since requiredScopes means all of them.
    requiredScopes: [],
    async execute(input, context) {
      const access = channelAccess(context.scopes, 'history');
      if (!access.public && !access.private) {
        return failure('permission_denied', {
          connector: 'slack',
          setupUrl: 'https://api.slack.com/apps',
          missingScopes: ['channels:history'],
          userMessage:
            'The Slack connection cannot read messages: grant channels:history (public channels) or groups:history (private channels).',
        });
      }
      const result = await client.call<{
        messages: SlackMessage[];
        has_more?: boolean;
        response_metadata?: { next_cursor?: string };
      }>(context.credentials, 'conversations.history', {
        httpMethod: 'GET',
        arguments: {
          channel: input.channel,
          limit: input.limit,
          oldest: input.oldest,
          latest: input.latest,
          cursor: input.cursor,
        },
        signal: context.signal,
      });
      if (!result.ok) return result.envelope;
      return success({
        messages: result.data.messages.map((message) => ({
          ts: message.ts,
          user: message.user ?? null,
          bot_id: message.bot_id ?? null,
          subtype: message.subtype ?? null,
          text: message.text ?? '',
          thread_ts: message.thread_ts ?? null,
          reply_count: message.reply_count ?? 0,
        })),
        has_more: result.data.has_more ?? false,
        next_cursor: result.data.response_metadata?.next_cursor || null,
      });
    },
  });
}
