import type { AnyTool } from '@patchbay/connector';
import type { EmailClient } from '../email-client.js';
import { createEmailGet } from './get.js';
import { createEmailListDomains } from './list-domains.js';
import { createEmailListSent } from './list-sent.js';
import { createEmailSend } from './send.js';
import { createEmailSendBatch } from './send-batch.js';

/** Every email tool, bound to one Resend client. */
export function createEmailTools(client: EmailClient): AnyTool[] {
  return [
    createEmailSend(client),
    createEmailSendBatch(client),
    createEmailGet(client),
    createEmailListSent(client),
    createEmailListDomains(client),
  ];
}
