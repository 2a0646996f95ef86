import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { EmailClient } from '../email-client.js';
import { type ResendEmail, summarizeEmail } from '../email-message.js';
import { emailScopes } from '../email-scopes.js';

/** `email_list_sent`: recently sent emails, newest first (`GET /emails`). */
export function createEmailListSent(client: EmailClient) {
  return defineTool({
    name: 'email_list_sent',
    description:
      'Lists emails recently sent through Resend, newest first, with recipients, subject and last delivery event. Page with `after`.',
    input: z.object({
      limit: z.number().int().min(1).max(100).default(20).describe('How many emails to return (1 to 100)'),
      after: z.string().min(1).optional().describe('Return emails after this email id (the next page)'),
    }),
    effect: 'read',
    requiredScopes: [emailScopes.read],
    async execute(input, context) {
      const { data } = await client.request<{ data?: ResendEmail[]; has_more?: boolean }>(
        context.credentials,
        {
          path: '/emails',
          query: { limit: input.limit, after: input.after },
          requiredScopes: [emailScopes.read],
          signal: context.signal,
        },
      );
      const emails = (data.data ?? []).map(summarizeEmail);
      return success({ emails, has_more: data.has_more ?? false });
    },
  });
}
