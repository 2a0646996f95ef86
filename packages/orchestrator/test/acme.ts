import { defineTool } from '@patchbay/connector';
import type { StoredConnection } from '@patchbay/connector/ports';
import { HttpError, success } from '@patchbay/envelope';
import { createFixtureConnector } from '@patchbay/testing';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { z } from 'zod';

// The Acme fixture (connector and fake service) is shared with @patchbay/mcp's gateway tests, so it
// imports nothing from this package's sources.

/** Base URL of the fake service the test connector talks to (served by msw). */
export const serviceUrl = 'https://api.acme.test';

/** A secret that must never show up in logs or envelopes. */
export const secretToken = 'acme_tok_SuperSecretValue12345';

/**
 * A real connector (`acme`) whose tools call the msw-served fake service with a bearer token; the
 * server counts requests so tests can prove none left.
 */
export function createAcmeConnector() {
  const authorized = async (path: string, init: RequestInit & { token: string; signal: AbortSignal }) => {
    const response = await fetch(`${serviceUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${init.token}`, 'content-type': 'application/json' },
    });
    if (!response.ok) throw await HttpError.fromResponse(response);
    return response.json();
  };
  return createFixtureConnector({
    id: 'acme',
    description: 'A fictional ticket service used in tests.',
    scopes: [
      { name: 'tickets:read', description: 'Read tickets' },
      { name: 'tickets:write', description: 'Create and delete tickets' },
    ],
    capabilities: ['read tickets', 'create tickets'],
    wouldEnable: ['Manage Acme tickets from chat'],
    tools: [
      defineTool({
        name: 'acme_get_ticket',
        description: 'Reads one Acme ticket by its id.',
        input: z.object({ id: z.string().describe('Ticket id') }),
        effect: 'read',
        requiredScopes: ['tickets:read'],
        execute: async (input, context) =>
          success(
            await authorized(`/tickets/${input.id}`, {
              token: context.credentials.token!,
              signal: context.signal,
            }),
          ),
      }),
      defineTool({
        name: 'acme_create_ticket',
        description: 'Creates an Acme ticket with a title.',
        input: z.object({
          title: z.string().describe('Ticket title').meta({ question: 'What should the ticket be called?' }),
          priority: z.number().int().min(1).max(5).optional().describe('Priority from 1 to 5'),
        }),
        effect: 'write',
        requiredScopes: ['tickets:write'],
        execute: async (input, context) =>
          success(
            await authorized('/tickets', {
              method: 'POST',
              body: JSON.stringify(input),
              token: context.credentials.token!,
              signal: context.signal,
            }),
          ),
      }),
      defineTool({
        name: 'acme_delete_ticket',
        description: 'Deletes an Acme ticket for good.',
        input: z.object({ id: z.string().describe('Ticket id') }),
        effect: 'destructive',
        requiredScopes: ['tickets:write'],
        execute: async (input, context) =>
          success(
            await authorized(`/tickets/${input.id}`, {
              method: 'DELETE',
              token: context.credentials.token!,
              signal: context.signal,
            }),
          ),
      }),
      defineTool({
        name: 'acme_post_to_chat',
        description: 'Posts a ticket summary to the team chat.',
        input: z.object({ id: z.string().describe('Ticket id') }),
        effect: 'write',
        requiredScopes: ['tickets:read'],
        requires: ['chat'],
        execute: async (input, context) =>
          success(
            await authorized(`/tickets/${input.id}/share`, {
              method: 'POST',
              token: context.credentials.token!,
              signal: context.signal,
            }),
          ),
      }),
    ],
  });
}

/** msw server for the fake Acme service; `requests` lists every request that reached it. */
export function createAcmeServer() {
  const requests: Request[] = [];
  const tickets = new Map<string, { id: string; title: string }>();
  /** Restores the initial tickets and forgets recorded requests and per-test handlers. */
  const reset = () => {
    tickets.clear();
    tickets.set('T-1', { id: 'T-1', title: 'First' });
    requests.length = 0;
    server.resetHandlers();
  };
  const server = setupServer(
    http.all(`${serviceUrl}/*`, ({ request }) => {
      requests.push(request.clone());
    }),
    http.get(`${serviceUrl}/tickets/:id`, ({ params }) => {
      const ticket = tickets.get(String(params.id));
      return ticket
        ? HttpResponse.json(ticket)
        : HttpResponse.json({ message: 'Ticket not found' }, { status: 404 });
    }),
    http.post(`${serviceUrl}/tickets`, async ({ request }) => {
      const body = (await request.json()) as { title: string };
      const ticket = { id: `T-${tickets.size + 1}`, title: body.title };
      tickets.set(ticket.id, ticket);
      return HttpResponse.json(ticket, { status: 201 });
    }),
    http.delete(`${serviceUrl}/tickets/:id`, ({ params }) => {
      tickets.delete(String(params.id));
      return HttpResponse.json({ deleted: params.id });
    }),
  );
  reset();
  return { server, requests, tickets, reset };
}

/** A connection of the test subject to Acme with the given scopes. */
export function acmeConnection(scopes: string[] = ['tickets:read', 'tickets:write']): StoredConnection {
  return { connectorId: 'acme', credentials: { token: secretToken }, scopes };
}
