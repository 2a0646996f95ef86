import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  verifyFailure,
} from '@patchbay/connector';
import { create__Name__Client } from './__ID__-client.js';
import { __id__Scopes } from './__ID__-scopes.js';
import { create__Name__Tools } from './tools/index.js';

/** Settings of {@link create__Name__}: `baseUrl`, `fetch`, `headers`. */
export type __Name__Settings = ConnectorSettings;

/** Creates the __NAME__ connector. */
export function create__Name__(settings: __Name__Settings = {}): Connector {
  const client = create__Name__Client(settings);
  return defineConnector({
    id: '__ID__',
    name: '__NAME__',
    description: 'TODO(connector author): one sentence on what __NAME__ is.',
    auth: {
      kind: 'bearer',
      scopes: __id__Scopes,
      fields: [{ name: 'token', description: '__NAME__ API token', secret: true, env: '__ENV___TOKEN' }],
    },
    capabilities: ['read items', 'create items'],
    wouldEnable: ['Look up and create __NAME__ items from chat'],
    setupUrl: 'https://__ID__.example/settings/tokens',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: create__Name__Tools(client),
    async verify(credentials, options) {
      try {
        // TODO(connector author): the service's cheapest identity endpoint and how it reports scopes.
        const { data, headers } = await client.request<{ name?: string }>(credentials, {
          path: '/me',
          signal: options?.signal,
        });
        const granted = headers.get('x-scopes');
        return {
          valid: true,
          scopes: granted ? granted.split(/[\s,]+/).filter(Boolean) : __id__Scopes.map((scope) => scope.name),
          identity: data?.name,
        };
      } catch (error) {
        return verifyFailure(error);
      }
    },
  });
}

/** The __NAME__ connector with default settings. */
export const __id__ = create__Name__();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<__Name__Settings> = create__Name__;
