import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import { accountPath, type SmsClient } from '../sms-client.js';

/** An IncomingPhoneNumber resource, the fields the tool reads. */
interface TwilioPhoneNumber {
  sid: string;
  phone_number: string;
  friendly_name?: string;
  capabilities?: { sms?: boolean; mms?: boolean; voice?: boolean; fax?: boolean };
  status?: string;
}

/** `sms_list_phone_numbers`: the account's own numbers and what they can do (`GET IncomingPhoneNumbers.json`). */
export function createSmsListPhoneNumbers(client: SmsClient) {
  return defineTool({
    name: 'sms_list_phone_numbers',
    description:
      'Lists the phone numbers of the Twilio account and whether each can send SMS or MMS. Use it to pick the `from` number for sms_send.',
    input: z.object({
      contains: z
        .string()
        .min(1)
        .optional()
        .describe('Only numbers containing these digits, e.g. an area code such as 415'),
      limit: z.number().int().min(1).max(100).default(20).describe('How many numbers to return (1 to 100)'),
    }),
    effect: 'read',
    async execute(input, context) {
      const { data } = await client.request<{
        incoming_phone_numbers?: TwilioPhoneNumber[];
        next_page_uri?: string | null;
      }>(context.credentials, {
        path: accountPath(context.credentials, 'IncomingPhoneNumbers'),
        query: { PhoneNumber: input.contains, PageSize: input.limit },
        signal: context.signal,
      });
      return success({
        phone_numbers: (data.incoming_phone_numbers ?? []).map((number) => ({
          sid: number.sid,
          phone_number: number.phone_number,
          friendly_name: number.friendly_name ?? null,
          sms: number.capabilities?.sms ?? false,
          mms: number.capabilities?.mms ?? false,
        })),
        has_more: Boolean(data.next_page_uri),
      });
    },
  });
}
