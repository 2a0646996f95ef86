import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  verifyFailure,
} from '@patchbay/connector';
import { createGithubClient, defaultGithubBaseUrl } from './github-client.js';
import { isInstallationRefusal, verifyInstallation } from './github-installation.js';
import { githubScopes, parseGithubScopes } from './github-scopes.js';
import { createGithubTools } from './tools/index.js';

/** Settings of {@link createGithub}: `baseUrl` (GitHub Enterprise: `https://HOST/api/v3`), `fetch`, `headers`. */
export type GithubSettings = ConnectorSettings;

/**
 * Where a user creates a token: github.com's token settings, or the same page on a GitHub
 * Enterprise Server host (its API lives under `/api/v3` of the web host).
 */
export function githubSetupUrl(baseUrl: string = defaultGithubBaseUrl): string {
  const url = new URL(baseUrl);
  if (url.hostname === 'api.github.com') return 'https://github.com/settings/tokens';
  // GitHub Enterprise Cloud with data residency serves its API from api.SUBDOMAIN.ghe.com.
  const host = url.hostname.startsWith('api.') ? url.hostname.slice(4) : url.hostname;
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}/settings/tokens`;
}

/** Creates the GitHub connector: issues and pull requests through the REST API (v3). */
export function createGithub(settings: GithubSettings = {}): Connector {
  const client = createGithubClient(settings);
  const declaredScopes = githubScopes.map((scope) => scope.name);
  return defineConnector({
    id: 'github',
    name: 'GitHub',
    description: 'GitHub hosts code repositories with their issues and pull requests.',
    auth: {
      kind: 'bearer',
      scopes: githubScopes,
      fields: [
        {
          name: 'token',
          description:
            'GitHub personal access token (classic with the repo or public_repo scope, or fine-grained with Issues and Pull requests access)',
          secret: true,
          env: 'GITHUB_TOKEN',
        },
      ],
    },
    capabilities: [
      'read issues and pull requests',
      'search issues',
      'open issues',
      'comment on issues',
      'close issues',
    ],
    wouldEnable: [
      'Look up, search and triage GitHub issues and pull requests from chat',
      'Open, comment on and close GitHub issues for you',
    ],
    setupUrl: githubSetupUrl(settings.baseUrl),
    docsUrl: 'https://docs.github.com/rest/issues',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: createGithubTools(client),
    async verify(credentials, options) {
      try {
        const { data, headers } = await client.request<{ login?: string }>(credentials, {
          path: '/user',
          signal: options?.signal,
        });
        // Classic tokens always send the header (empty when the token has no scope); fine-grained
        // tokens send none, and their permissions cannot be read: report the declared ones.
        const header = headers.get('x-oauth-scopes');
        return {
          valid: true,
          scopes: header === null ? declaredScopes : parseGithubScopes(header),
          identity: data?.login,
        };
      } catch (error) {
        if (!isInstallationRefusal(error, credentials.token)) return verifyFailure(error);
        return verifyInstallation(client, credentials, declaredScopes, options?.signal);
      }
    },
  });
}

/** The GitHub connector with default settings (github.com). */
export const github = createGithub();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<GithubSettings> = createGithub;
