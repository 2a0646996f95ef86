import {
  type Connector,
  type ConnectorDefinition,
  type Credentials,
  defineConnector,
  defineTool,
  type ToolContext,
  type VerifyResult,
} from '@patchbay/connector';
import { type Envelope, HttpError, retryAfterSeconds, success, toEnvelope } from '@patchbay/envelope';
import { z } from 'zod';

/**
 * Stand-in connector for the tests of this package: a made-up service at api.example.test with a
 * read and a destructive tool, written the way a real connector package should be.
 */
export interface ExampleSettings {
  baseUrl?: string;
  /** Resolved at call time so msw (which patches `globalThis.fetch` on listen) sees the request. */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

export const exampleSetupUrl = 'https://example.test/settings/tokens';

/** Valid-looking credentials and a sample input per tool, as a connector package passes them to the suite. */
export const exampleCredentials: Credentials = { token: 'exk_live_0123456789abcdef' };
export const exampleSamples = { example_get_item: { id: 'item-1' }, example_delete_item: { id: 'item-1' } };

/** Sends one authenticated request; what a connector's internal HTTP helper does. */
export async function exampleRequest(
  settings: ExampleSettings,
  context: Pick<ToolContext, 'credentials' | 'signal'>,
  method: string,
  path: string,
): Promise<Response> {
  const fetchImplementation = settings.fetch ?? globalThis.fetch;
  return fetchImplementation(`${settings.baseUrl ?? 'https://api.example.test/v1'}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${context.credentials.token}`,
      ...settings.headers,
    },
    signal: context.signal,
  });
}

/** Maps a non-2xx response to an envelope the way every connector should. */
export async function exampleFailure(
  response: Response,
  context: Pick<ToolContext, 'credentials'>,
): Promise<Envelope> {
  return toEnvelope(await HttpError.fromResponse(response), {
    connector: 'example',
    setupUrl: exampleSetupUrl,
    secrets: Object.values(context.credentials),
  });
}

const itemInput = z.object({ id: z.string().min(1).describe('Id of the item, e.g. "item-1"') });

/** The read tool, built for given settings. */
export function exampleGetItem(settings: ExampleSettings = {}) {
  return defineTool({
    name: 'example_get_item',
    description: 'Reads one item of the example service by its id.',
    input: itemInput,
    effect: 'read',
    requiredScopes: ['items:read'],
    execute: async (input, context) => {
      const response = await exampleRequest(
        settings,
        context,
        'GET',
        `/items/${encodeURIComponent(input.id)}`,
      );
      if (!response.ok) return exampleFailure(response, context);
      const item = (await response.json()) as { id?: string; title?: string };
      return success({ id: item.id ?? input.id, title: item.title ?? null });
    },
  });
}

/** The destructive tool, built for given settings. */
export function exampleDeleteItem(settings: ExampleSettings = {}) {
  return defineTool({
    name: 'example_delete_item',
    description: 'Deletes one item of the example service permanently.',
    input: itemInput,
    effect: 'destructive',
    requiredScopes: ['items:write'],
    execute: async (input, context) => {
      const response = await exampleRequest(
        settings,
        context,
        'DELETE',
        `/items/${encodeURIComponent(input.id)}`,
      );
      if (!response.ok) return exampleFailure(response, context);
      return success({ deleted: input.id });
    },
  });
}

/** Checks a token against `GET /me`; never throws. */
export async function exampleVerify(
  settings: ExampleSettings,
  credentials: Credentials,
): Promise<VerifyResult> {
  try {
    const response = await exampleRequest(
      settings,
      { credentials, signal: new AbortController().signal },
      'GET',
      '/me',
    );
    if (response.ok) {
      const me = (await response.json()) as { login?: string };
      return { valid: true, scopes: ['items:read', 'items:write'], identity: me.login };
    }
    if (response.status === 401)
      return { valid: false, reason: 'invalid_credentials', message: 'The token was rejected.' };
    if (response.status === 429) {
      return {
        valid: false,
        reason: 'rate_limited',
        message: 'The service is rate limiting requests.',
        retryAfterS: retryAfterSeconds(response.headers),
      };
    }
    return {
      valid: false,
      reason: 'unreachable',
      message: 'The service could not check the credentials right now; try again in a moment.',
    };
  } catch {
    return { valid: false, reason: 'unreachable', message: 'The service could not be reached.' };
  }
}

/** The example connector's definition, so broken variants can swap single parts. */
export function createExampleDefinition(settings: ExampleSettings = {}): ConnectorDefinition {
  return {
    id: 'example',
    name: 'Example',
    description: 'A made-up item store used to test the conformance suite.',
    auth: {
      kind: 'bearer',
      scopes: [
        { name: 'items:read', description: 'Read items' },
        { name: 'items:write', description: 'Change and delete items' },
      ],
      fields: [{ name: 'token', description: 'API token', secret: true, env: 'EXAMPLE_TOKEN' }],
    },
    capabilities: ['read items', 'delete items'],
    wouldEnable: ['Look up and clean up items from chat'],
    setupUrl: exampleSetupUrl,
    tools: [exampleGetItem(settings), exampleDeleteItem(settings)],
    verify: (credentials) => exampleVerify(settings, credentials),
  };
}

/** Factory of the example connector. */
export function createExample(settings: ExampleSettings = {}): Connector {
  return defineConnector(createExampleDefinition(settings));
}
