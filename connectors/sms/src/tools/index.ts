import type { AnyTool } from '@patchbay/connector';
import type { TwilioClient } from '../sms-client.js';
import { createSmsGetMessage } from './get-message.js';
import { createSmsListMessages } from './list-messages.js';
import { createSmsListPhoneNumbers } from './list-phone-numbers.js';
import { createSmsSend } from './send-sms.js';

/** Every SMS tool, bound to one Twilio client. */
export function createSmsTools(client: TwilioClient): AnyTool[] {
  return [
    createSmsSend(client),
    createSmsGetMessage(client),
    createSmsListMessages(client),
    createSmsListPhoneNumbers(client),
  ];
}
