import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { EmailClient } from '../email-client.js';
import { emailScopes } from '../email-scopes.js';

/** A domain as `GET /domains` lists it. */
export interface ResendDomain {
  id: string;
  name: string;
  status: string;
  created_at?: string;
  region?: string;
  capabilities?: { sending?: string; receiving?: string };
}

/** `email_list_domains`: the sending domains and whether they are verified (`GET /domains`). */
export function createEmailListDomains(client: EmailClient) {
  return defineTool({
    name: 'email_list_domains',
    description:
      'Lists the domains of the Resend account with their verification status. Emails can only be sent from addresses on a verified domain.',
    input: z.object({
      limit: z.number().int().min(1).max(100).default(20).describe('How many domains to return (1 to 100)'),
    }),
    effect: 'read',
    requiredScopes: [emailScopes.domains],
    async execute(input, context) {
      const { data } = await client.request<{ data?: ResendDomain[]; has_more?: boolean }>(
        context.credentials,
        {
          path: '/domains',
          query: { limit: input.limit },
          requiredScopes: [emailScopes.domains],
          signal: context.signal,
        },
      );
      const domains = (data.data ?? []).map((domain) => ({
        id: domain.id,
        name: domain.name,
        status: domain.status,
        region: domain.region ?? null,
        sending: domain.capabilities?.sending ?? null,
      }));
      return success({ domains, has_more: data.has_more ?? false });
    },
  });
}
