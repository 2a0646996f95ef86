import { defineTool } from '@patchbay/connector';
import { failure, success } from '@patchbay/envelope';
import { z } from 'zod';
import type { SlackClient } from '../slack-client.js';
import { channelAccess } from '../slack-scopes.js';

/** The fields of a Slack conversation object the tool reads. */
interface SlackChannel {
  id: string;
  name?: string;
  is_private?: boolean;
  is_member?: boolean;
  is_archived?: boolean;
  is_ext_shared?: boolean;
  num_members?: number;
  topic?: { value?: string };
  purpose?: { value?: string };
}

/** `slack_list_channels`: lists channels with the ids other Slack tools need. */
export function createSlackListChannels(client: SlackClient) {
  return defineTool({
    name: 'slack_list_channels',
    description:
      'Lists Slack channels with their IDs, names, topics, whether the app is a member and whether the channel is shared with other organizations. Use it to find the channel ID other Slack tools need.',
    input: z.object({
      include_private: z
        .boolean()
        .default(false)
        .describe(
          'Also list private channels the app was invited to (needs the groups:read scope; a token with only groups:read lists private channels anyway)',
        ),
      exclude_archived: z.boolean().default(true).describe('Leave archived channels out (the default)'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(1000)
        .default(200)
        .describe('How many channels to return at most (1-1000)'),
      cursor: z
        .string()
        .min(1)
        .optional()
        .describe('next_cursor from a previous call, to get the following page'),
    }),
    effect: 'read',
    // channels:read or groups:read, either enough: checked below, since requiredScopes means all.
    requiredScopes: [],
    async execute(input, context) {
      const access = channelAccess(context.scopes, 'read');
      // Ask only for the kinds the token may list: Slack refuses the whole call for a kind it may not.
      const types = [
        ...(access.public ? ['public_channel'] : []),
        ...(access.private && (input.include_private || !access.public) ? ['private_channel'] : []),
      ];
      if (input.include_private && !access.private) {
        return failure('permission_denied', {
          connector: 'slack',
          setupUrl: 'https://api.slack.com/apps',
          missingScopes: ['groups:read'],
          userMessage: 'The Slack connection cannot list private channels: grant groups:read.',
        });
      }
      if (types.length === 0) {
        return failure('permission_denied', {
          connector: 'slack',
          setupUrl: 'https://api.slack.com/apps',
          missingScopes: ['channels:read'],
          userMessage:
            'The Slack connection cannot list channels: grant channels:read (public channels) or groups:read (private channels).',
        });
      }
      const result = await client.call<{
        channels: SlackChannel[];
        response_metadata?: { next_cursor?: string };
      }>(context.credentials, 'conversations.list', {
        httpMethod: 'GET',
        arguments: {
          types: types.join(','),
          exclude_archived: input.exclude_archived,
          limit: input.limit,
          cursor: input.cursor,
        },
        signal: context.signal,
      });
      if (!result.ok) return result.envelope;
      return success({
        channels: result.data.channels.map((channel) => ({
          id: channel.id,
          name: channel.name ?? null,
          is_private: channel.is_private ?? false,
          is_member: channel.is_member ?? false,
          is_archived: channel.is_archived ?? false,
          // Messages there reach people outside the organization (Slack Connect).
          is_ext_shared: channel.is_ext_shared ?? false,
          num_members: channel.num_members ?? null,
          topic: channel.topic?.value || null,
          purpose: channel.purpose?.value || null,
        })),
        // Slack sends an empty string on the last page.
        next_cursor: result.data.response_metadata?.next_cursor || null,
      });
    },
  });
}
