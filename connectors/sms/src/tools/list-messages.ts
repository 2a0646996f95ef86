import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import { accountPath, type SmsClient } from '../sms-client.js';
import { summarizeMessage, type TwilioMessage } from '../sms-message.js';

const day = z.iso.date();

/** `sms_list_messages`: recent messages, newest first, optionally filtered (`GET Messages.json`). */
export function createSmsListMessages(client: SmsClient) {
  return defineTool({
    name: 'sms_list_messages',
    description:
      'Lists recent text messages of the Twilio account, sent and received, newest first. Filter by recipient, sender or the day range they were sent.',
    input: z.object({
      to: z.string().min(1).optional().describe('Only messages sent to this number (E.164)'),
      from: z.string().min(1).optional().describe('Only messages sent from this number (E.164)'),
      sent_on_or_after: day.optional().describe('Only messages sent on or after this day (YYYY-MM-DD, UTC)'),
      sent_on_or_before: day
        .optional()
        .describe('Only messages sent on or before this day (YYYY-MM-DD, UTC)'),
      limit: z.number().int().min(1).max(100).default(20).describe('How many messages to return (1 to 100)'),
    }),
    effect: 'read',
    async execute(input, context) {
      const { data } = await client.request<{ messages?: TwilioMessage[]; next_page_uri?: string | null }>(
        context.credentials,
        {
          path: accountPath(context.credentials, 'Messages'),
          query: {
            To: input.to,
            From: input.from,
            // Twilio's inequality filters are spelled into the parameter name.
            'DateSent>': input.sent_on_or_after,
            'DateSent<': input.sent_on_or_before,
            PageSize: input.limit,
          },
          signal: context.signal,
        },
      );
      return success({
        messages: (data.messages ?? []).map(summarizeMessage),
        has_more: Boolean(data.next_page_uri),
      });
    },
  });
}
