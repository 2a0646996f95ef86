import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  verifyFailure,
} from '@patchbay/connector';
import { HttpError, PatchbayError } from '@patchbay/envelope';
import { createJiraClient } from './jira-client.js';
import { jiraScopes, readUser, readWork, writeWork } from './jira-scopes.js';
import { createJiraTools } from './tools/index.js';

/**
 * Settings of {@link createJira}. `baseUrl` is required for real use: the site
 * (`https://acme.atlassian.net`) or the `https://api.atlassian.com/ex/jira/<cloudId>` gateway that
 * scoped API tokens need. `fetch` and `headers` as for every connector.
 */
export type JiraSettings = ConnectorSettings;

/** The answer of `GET /rest/api/3/myself`. */
interface Myself {
  accountId?: string;
  displayName?: string;
  emailAddress?: string;
}

/** Creates the Jira Cloud connector. */
export function createJira(settings: JiraSettings = {}): Connector {
  const client = createJiraClient(settings);
  return defineConnector({
    id: 'jira',
    name: 'Jira',
    description: "Atlassian's issue and project tracker (Jira Cloud, REST API v3).",
    auth: {
      kind: 'basic',
      scopes: [
        { name: readWork, description: 'Read projects, issues, comments and search results' },
        { name: writeWork, description: 'Create issues, add comments and move issues through workflows' },
        { name: readUser, description: 'Read user profiles, including who the token belongs to' },
      ],
      fields: [
        {
          name: 'email',
          description: 'Email address of the Atlassian account',
          secret: false,
          env: 'JIRA_EMAIL',
        },
        { name: 'api_token', description: 'Atlassian API token', secret: true, env: 'JIRA_API_TOKEN' },
      ],
    },
    capabilities: [
      'search issues with JQL',
      'read issues',
      'create issues',
      'comment on issues',
      'move issues',
    ],
    wouldEnable: [
      'Find, read and file Jira issues from chat',
      'Comment on Jira issues and move them to another status',
    ],
    setupUrl: 'https://id.atlassian.com/manage-profile/security/api-tokens',
    docsUrl: 'https://developer.atlassian.com/cloud/jira/platform/rest/v3/intro/',
    // Stored credentials are bound to the site: another site makes them invalid, never sent. Jira has
    // no default site, so a connection stored before origins were recorded is connected again once.
    ...(client.origin === undefined ? {} : { origin: client.origin }),
    tools: createJiraTools(client),
    async verify(credentials, options) {
      try {
        const { data } = await client.request<Myself>(credentials, {
          path: '/rest/api/3/myself',
          requiredScopes: [readUser],
          signal: options?.signal,
        });
        // Classic API tokens carry the account's permissions and expose no scopes: report the declared ones.
        return { valid: true, scopes: [...jiraScopes], identity: data?.displayName ?? data?.emailAddress };
      } catch (error) {
        if (HttpError.isHttpError(error) && error.missingScopes?.includes(readUser)) {
          // A scoped token that authenticates but may not read profiles: usable for issue work.
          return { valid: true, scopes: jiraScopes.filter((scope) => scope !== readUser) };
        }
        if (PatchbayError.isInstance(error) && error.code === 'invalid_credentials') {
          return { valid: false, reason: 'invalid_credentials', message: error.message };
        }
        if (PatchbayError.isInstance(error) && error.code === 'connector_not_configured') {
          return { valid: false, reason: 'unreachable', message: error.message };
        }
        return verifyFailure(error);
      }
    },
  });
}

/** The Jira connector without a site: every call answers `connector_not_configured` until created with `baseUrl`. */
export const jira = createJira();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<JiraSettings> = createJira;
