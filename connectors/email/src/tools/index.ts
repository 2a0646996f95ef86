import type { AnyTool } from '@patchbay/connector';
import type { ResendClient } from '../email-client.js';
import { createEmailGet } from './get-email.js';
import { createEmailListDomains } from './list-domains.js';
import { createEmailListSent } from './list-emails.js';
import { createEmailSendBatch } from './send-batch.js';
import { createEmailSend } from './send-email.js';

/** Every email tool, bound to one Resend client. */
export function createEmailTools(client: ResendClient): AnyTool[] {
  return [
    createEmailSend(client),
    createEmailSendBatch(client),
    createEmailGet(client),
    createEmailListSent(client),
    createEmailListDomains(client),
  ];
}
