import { defineTool } from '@patchbay/connector';
import { needsInput, success } from '@patchbay/envelope';
import { z } from 'zod';
import type { EmailClient } from '../email-client.js';
import { emailMessageFields, hasBody, recipientsOf, resendMessageBody } from '../email-message.js';
import { emailScopes } from '../email-scopes.js';

/** The question asked when an email has neither a text nor an HTML body. */
export const bodyQuestion = 'What should the email say?';

/** `email_send`: sends one email through Resend (`POST /emails`). */
export function createEmailSend(client: EmailClient) {
  return defineTool({
    name: 'email_send',
    description:
      'Sends one email through Resend to the given recipients. Reaches people outside, so only send what the user asked for. The sender must be on a verified domain (see email_list_domains). Returns the id of the sent email.',
    input: z.object({
      ...emailMessageFields,
      scheduled_at: z
        .string()
        .optional()
        .describe('Send later instead of now: an ISO 8601 time or a phrase such as "in 1 hour"'),
      idempotency_key: z
        .string()
        .min(1)
        .max(256)
        .optional()
        .describe('Unique key for this send; Resend sends an email once per key within 24 hours'),
    }),
    effect: 'destructive',
    requiredScopes: [emailScopes.send],
    async execute(input, context) {
      if (!hasBody(input)) return needsInput({ missing: [{ field: 'text', question: bodyQuestion }] });
      const { data } = await client.request<{ id: string }>(context.credentials, {
        method: 'POST',
        path: '/emails',
        json: { ...resendMessageBody(input), scheduled_at: input.scheduled_at },
        headers: input.idempotency_key ? { 'idempotency-key': input.idempotency_key } : undefined,
        requiredScopes: [emailScopes.send],
        signal: context.signal,
      });
      return success({
        id: data.id,
        to: recipientsOf(input),
        subject: input.subject,
        ...(input.scheduled_at ? { scheduled_at: input.scheduled_at } : {}),
      });
    },
  });
}
