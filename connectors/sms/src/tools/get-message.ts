import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import { accountPath, type SmsClient } from '../sms-client.js';
import { messageSidPattern, summarizeMessage, type TwilioMessage } from '../sms-message.js';

/** `sms_get_message`: one message with its delivery status (`GET Messages/{Sid}.json`). */
export function createSmsGetMessage(client: SmsClient) {
  return defineTool({
    name: 'sms_get_message',
    description:
      'Gets one Twilio message by its SID: recipient, sender, text, delivery status (queued, sent, delivered, undelivered, failed) and any delivery error.',
    input: z.object({
      sid: z
        .string()
        .regex(messageSidPattern, 'a message SID is SM or MM followed by 32 hex digits')
        .describe('SID of the message (SM... or MM...), as returned by sms_send or sms_list_messages')
        .meta({ question: 'Which text message do you mean?' }),
    }),
    effect: 'read',
    async execute(input, context) {
      const { data } = await client.request<TwilioMessage>(context.credentials, {
        path: accountPath(context.credentials, `Messages/${input.sid}`),
        signal: context.signal,
      });
      return success(summarizeMessage(data));
    },
  });
}
