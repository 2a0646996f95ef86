import type { AnyTool } from '@patchbay/connector';
import type { SmsClient } from '../sms-client.js';
import { createSmsGetMessage } from './get-message.js';
import { createSmsListMessages } from './list-messages.js';
import { createSmsListPhoneNumbers } from './list-phone-numbers.js';
import { createSmsSend } from './send.js';

/** Every SMS tool, bound to one Twilio client. */
export function createSmsTools(client: SmsClient): AnyTool[] {
  return [
    createSmsSend(client),
    createSmsGetMessage(client),
    createSmsListMessages(client),
    createSmsListPhoneNumbers(client),
  ];
}
