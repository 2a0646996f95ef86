import { defineTool } from '@patchbay/connector';
import { needsInput, success } from '@patchbay/envelope';
import { z } from 'zod';
import { accountPath, type SmsClient } from '../sms-client.js';
import { summarizeMessage, type TwilioMessage } from '../sms-message.js';

/** The question asked when neither a sender number nor a Messaging Service is given. */
export const senderQuestion = 'Which of your Twilio phone numbers should the text come from?';

/** `sms_send`: sends one SMS (or MMS with a media URL) through Twilio (`POST Messages.json`). */
export function createSmsSend(client: SmsClient) {
  return defineTool({
    name: 'sms_send',
    description:
      'Sends a text message through Twilio to one phone number. Reaches a person outside, so only send what the user asked for. Give `from` (one of the account’s numbers, see sms_list_phone_numbers) or `messaging_service_sid`.',
    input: z.object({
      to: z
        .string()
        .min(1)
        .describe('Recipient phone number in E.164 format, e.g. +14155550123')
        .meta({ question: 'Which phone number should I text?' }),
      body: z
        .string()
        .min(1)
        .max(1600)
        .describe('Text of the message, up to 1,600 characters')
        .meta({ question: 'What should the text message say?' }),
      from: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Sender: a Twilio phone number of this account in E.164 format, or an alphanumeric sender ID',
        )
        .meta({ question: senderQuestion }),
      messaging_service_sid: z
        .string()
        .regex(/^MG[0-9a-fA-F]{32}$/, 'a Messaging Service SID is MG followed by 32 hex digits')
        .optional()
        .describe('Messaging Service (MG...) that picks the sender, instead of `from`'),
      media_url: z
        .url()
        .optional()
        .describe('Public URL of an image or other media to attach, which makes the message an MMS'),
    }),
    effect: 'destructive',
    async execute(input, context) {
      if (!input.from && !input.messaging_service_sid) {
        return needsInput({ missing: [{ field: 'from', question: senderQuestion }] });
      }
      const { data } = await client.request<TwilioMessage>(context.credentials, {
        method: 'POST',
        path: accountPath(context.credentials, 'Messages'),
        form: {
          To: input.to,
          From: input.from,
          MessagingServiceSid: input.messaging_service_sid,
          Body: input.body,
          MediaUrl: input.media_url,
        },
        signal: context.signal,
      });
      return success(summarizeMessage(data));
    },
  });
}
