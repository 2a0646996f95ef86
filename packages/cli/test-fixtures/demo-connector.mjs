// Test stand-in connector for the CLI's end-to-end tests: talks to the loopback "fake service"
// the test starts (a good token, a revoked token answering 401, scopes in a response header).
import { defineConnector, defineTool } from '@patchbay/connector';
import { HttpError, success } from '@patchbay/envelope';
import { z } from 'zod';

async function request(baseUrl, path, init, token, signal) {
  const response = await fetch(new URL(path, baseUrl), {
    ...init,
    signal,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    throw new HttpError({ status: response.status, headers: response.headers, body });
  }
  return response.status === 204 ? undefined : response.json();
}

/** Creates the demo connector against a base URL. */
export function createDemo(settings = {}) {
  const baseUrl = settings.baseUrl ?? 'http://127.0.0.1:9/';
  return defineConnector({
    id: 'demo',
    name: 'Demo Service',
    description: 'A loopback fake service used by the CLI tests.',
    auth: {
      kind: 'bearer',
      scopes: [
        { name: 'items:read', description: 'Read items' },
        { name: 'items:write', description: 'Delete items' },
      ],
      fields: [{ name: 'token', description: 'API token', secret: true }],
    },
    capabilities: ['list items', 'delete items'],
    wouldEnable: ['Manage demo items from chat'],
    setupUrl: 'https://demo.example/settings/tokens',
    tools: [
      defineTool({
        name: 'demo_list_items',
        description: 'Lists every item in the demo service.',
        input: z.object({}),
        effect: 'read',
        requiredScopes: ['items:read'],
        execute: async (_input, context) =>
          success(
            await request(baseUrl, '/items', { method: 'GET' }, context.credentials.token, context.signal),
          ),
      }),
      defineTool({
        name: 'demo_delete_item',
        description: 'Deletes one item from the demo service for good.',
        input: z.object({ item_id: z.string().describe('Id of the item to delete') }),
        effect: 'destructive',
        requiredScopes: ['items:write'],
        execute: async (input, context) =>
          success(
            await request(
              baseUrl,
              `/items/${encodeURIComponent(input.item_id)}`,
              { method: 'DELETE' },
              context.credentials.token,
              context.signal,
            ),
          ),
      }),
    ],
    async verify(credentials, options) {
      try {
        const response = await fetch(new URL('/whoami', baseUrl), {
          headers: { authorization: `Bearer ${credentials.token}` },
          signal: options?.signal,
        });
        if (response.status === 401)
          return {
            valid: false,
            reason: 'invalid_credentials',
            message: 'The demo service rejected the token (revoked or wrong).',
          };
        if (!response.ok)
          return {
            valid: false,
            reason: 'unreachable',
            message: `The demo service answered HTTP ${response.status}.`,
          };
        const body = await response.json();
        const scopes = (response.headers.get('x-scopes') ?? '').split(/\s+/).filter(Boolean);
        return { valid: true, scopes, identity: body.login };
      } catch {
        return { valid: false, reason: 'unreachable', message: 'The demo service could not be reached.' };
      }
    },
  });
}

export const demo = createDemo();

/** The declaration the CLI discovers this module by. */
export const connectorFactory = createDemo;
