// @ts-check
// The team's own connector: a small helpdesk service (tickets), built with defineConnector like any
// Patchbay connector. In a real repository its tools call the service's API; here they answer from
// an in-memory list so the example runs offline.
import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';

const tickets = [
  { id: 'HD-7', title: 'Printer on floor 3 jams', status: 'open' },
  { id: 'HD-9', title: 'VPN drops every hour', status: 'open' },
];

/** Creates the helpdesk connector (a factory, as connector packages have). */
export function createHelpdesk() {
  return defineConnector({
    id: 'helpdesk',
    name: 'Helpdesk',
    description: 'The support desk: open, list and close support tickets.',
    auth: {
      kind: 'bearer',
      scopes: [
        { name: 'tickets:read', description: 'Read tickets' },
        { name: 'tickets:write', description: 'Open and close tickets' },
      ],
    },
    capabilities: ['list open tickets', 'open tickets'],
    wouldEnable: ['Open support tickets from chat', 'See what is open at the desk'],
    setupUrl: 'https://desk.example.com/settings/patchbay',
    verify: async () => ({ valid: true, scopes: ['tickets:read', 'tickets:write'] }),
    tools: [
      defineTool({
        name: 'helpdesk_list_tickets',
        description: 'List the open support tickets of the helpdesk.',
        input: z.object({}),
        effect: 'read',
        requiredScopes: ['tickets:read'],
        execute: async () => success(tickets.filter((ticket) => ticket.status === 'open')),
      }),
      defineTool({
        name: 'helpdesk_create_ticket',
        description: 'Open a support ticket at the helpdesk.',
        input: z.object({
          title: z
            .string()
            .min(3)
            .describe('Ticket title: what is broken')
            .meta({ question: 'What should the ticket be titled?' }),
        }),
        effect: 'write',
        requiredScopes: ['tickets:write'],
        execute: async ({ title }) => success({ id: 'HD-10', title, status: 'open' }),
      }),
    ],
  });
}

/** The default instance. */
export const helpdesk = createHelpdesk();
