import { defineTool } from '@patchbay/connector';
import { needsInput, success } from '@patchbay/envelope';
import { z } from 'zod';
import type { EmailClient } from '../email-client.js';
import { emailMessageSchema, hasBody, recipientsOf, resendMessageBody } from '../email-message.js';
import { emailScopes } from '../email-scopes.js';
import { bodyQuestion } from './send.js';

/** Resend's limit on emails in one batch call. */
export const maxBatchSize = 100;

/** `email_send_batch`: sends up to 100 different emails in one call (`POST /emails/batch`). */
export function createEmailSendBatch(client: EmailClient) {
  return defineTool({
    name: 'email_send_batch',
    description:
      'Sends up to 100 different emails through Resend in one call, each with its own recipients and content. All are rejected if one is invalid. Reaches people outside.',
    input: z.object({
      emails: z
        .array(emailMessageSchema)
        .min(1)
        .max(maxBatchSize)
        .describe('The emails to send, each with from, to, subject and a text or html body')
        .meta({ question: 'Which emails should I send, and to whom?' }),
      idempotency_key: z
        .string()
        .min(1)
        .max(256)
        .optional()
        .describe('Unique key for this batch; Resend sends it once per key within 24 hours'),
    }),
    effect: 'destructive',
    requiredScopes: [emailScopes.send],
    async execute(input, context) {
      const bodiless = input.emails.findIndex((message) => !hasBody(message));
      if (bodiless >= 0) {
        return needsInput({
          missing: [
            { field: `emails.${bodiless}.text`, question: `${bodyQuestion} (email ${bodiless + 1})` },
          ],
        });
      }
      const { data } = await client.request<{ data: { id: string }[] }>(context.credentials, {
        method: 'POST',
        path: '/emails/batch',
        json: input.emails.map(resendMessageBody),
        headers: input.idempotency_key ? { 'idempotency-key': input.idempotency_key } : undefined,
        requiredScopes: [emailScopes.send],
        signal: context.signal,
      });
      return success({
        sent: (data.data ?? []).map((item, index) => ({
          id: item.id,
          to: recipientsOf(input.emails[index]!),
          subject: input.emails[index]?.subject,
        })),
      });
    },
  });
}
