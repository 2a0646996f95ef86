import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { EmailClient } from '../email-client.js';
import { type ResendEmail, summarizeEmail } from '../email-message.js';
import { emailScopes } from '../email-scopes.js';

/** `email_get`: one sent email with its delivery status (`GET /emails/{id}`). */
export function createEmailGet(client: EmailClient) {
  return defineTool({
    name: 'email_get',
    description:
      'Gets one email sent through Resend by its id: sender, recipients, subject, body and last delivery event (delivered, bounced, opened, ...).',
    input: z.object({
      id: z
        .string()
        .min(1)
        .describe('Id of the sent email, as returned by email_send')
        .meta({ question: 'Which sent email do you mean?' }),
    }),
    effect: 'read',
    requiredScopes: [emailScopes.read],
    async execute(input, context) {
      const { data } = await client.request<ResendEmail>(context.credentials, {
        path: `/emails/${encodeURIComponent(input.id)}`,
        requiredScopes: [emailScopes.read],
        signal: context.signal,
      });
      return success({ ...summarizeEmail(data), text: data.text ?? null, html: data.html ?? null });
    },
  });
}
