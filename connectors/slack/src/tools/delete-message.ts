import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { SlackClient } from '../slack-client.js';
import { channelIdField, messageTsField } from '../slack-fields.js';

/** `slack_delete_message`: deletes a message the app posted. It cannot be undone. */
export function createSlackDeleteMessage(client: SlackClient) {
  return defineTool({
    name: 'slack_delete_message',
    description:
      'Deletes a Slack message the app posted, identified by channel ID and message timestamp. This cannot be undone.',
    input: z.object({
      channel: channelIdField('In which Slack channel is the message?'),
      ts: messageTsField(
        'Timestamp of the message to delete, as returned by slack_post_message or slack_get_channel_history',
        'Which message should I delete (its timestamp)?',
      ),
    }),
    effect: 'destructive',
    requiredScopes: ['chat:write'],
    async execute(input, context) {
      const result = await client.call<{ channel: string; ts: string }>(context.credentials, 'chat.delete', {
        arguments: { channel: input.channel, ts: input.ts },
        signal: context.signal,
      });
      if (!result.ok) return result.envelope;
      return success({ channel: result.data.channel, ts: result.data.ts, deleted: true });
    },
  });
}
