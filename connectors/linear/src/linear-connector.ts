import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  verifyFailure,
} from '@patchbay/connector';
import { HttpError, PatchbayError } from '@patchbay/envelope';
import { createLinearClient } from './linear-client.js';
import { commentsCreate, issuesCreate, linearScopes, read, write } from './linear-scopes.js';
import { createLinearTools } from './tools/index.js';

/** Settings of {@link createLinear}: `baseUrl` (GraphQL is `<baseUrl>/graphql`), `fetch`, `headers`. */
export type LinearSettings = ConnectorSettings;

const viewerQuery = `query PatchbayViewer {
  viewer { id name email }
  organization { name urlKey }
}`;

interface ViewerData {
  viewer?: { id: string; name?: string; email?: string };
  organization?: { name?: string; urlKey?: string };
}

/** Creates the Linear connector. */
export function createLinear(settings: LinearSettings = {}): Connector {
  const client = createLinearClient(settings);
  return defineConnector({
    id: 'linear',
    name: 'Linear',
    description: 'Linear is an issue tracker for software teams (GraphQL API).',
    auth: {
      kind: 'api_key',
      scopes: [
        { name: read, description: 'Read issues, teams and comments the user can see' },
        { name: write, description: 'Change data as the user, e.g. move issues between states' },
        { name: issuesCreate, description: 'Create issues' },
        { name: commentsCreate, description: 'Create comments on issues' },
      ],
      fields: [
        {
          name: 'api_key',
          description: 'Linear personal API key (lin_api_…) or OAuth access token',
          secret: true,
          env: 'LINEAR_API_KEY',
        },
      ],
    },
    capabilities: [
      'search issues',
      'read issues',
      'list teams',
      'create issues',
      'comment on issues',
      'move issues',
    ],
    wouldEnable: [
      'Find, read and file Linear issues from chat',
      'Comment on Linear issues and move them to another state',
    ],
    setupUrl: 'https://linear.app/settings/account/security',
    docsUrl: 'https://linear.app/developers/graphql',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: createLinearTools(client),
    async verify(credentials, options) {
      try {
        const data = await client.graphql<ViewerData>(credentials, {
          query: viewerQuery,
          requiredScopes: [read],
          signal: options?.signal,
        });
        const name = data.viewer?.name ?? data.viewer?.email;
        const workspace = data.organization?.name;
        // Linear exposes no granted scopes for a key or token: report the declared ones.
        return {
          valid: true,
          scopes: [...linearScopes],
          identity: name && workspace ? `${name} (${workspace})` : (name ?? workspace),
        };
      } catch (error) {
        if (HttpError.isHttpError(error) && error.status === 403) {
          return {
            valid: false,
            reason: 'invalid_credentials',
            message: 'This Linear key may not read the workspace; create a key with the Read permission.',
          };
        }
        if (PatchbayError.isInstance(error) && error.code === 'invalid_credentials') {
          return { valid: false, reason: 'invalid_credentials', message: error.message };
        }
        return verifyFailure(error);
      }
    },
  });
}

/** The Linear connector with default settings. */
export const linear = createLinear();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<LinearSettings> = createLinear;
