import type { ConnectorSettings } from '@patchbay/connector';
import { createHttpClient, type HttpClient } from '@patchbay/helpers';
import { mapGithubError } from './github-errors.js';

/** Where the GitHub REST API lives unless `baseUrl` says otherwise (GitHub Enterprise: `https://HOST/api/v3`). */
export const defaultGithubBaseUrl = 'https://api.github.com';

/** The REST API version every request pins, so a GitHub-side default change cannot alter response shapes. */
export const githubApiVersion = '2022-11-28';

/** The HTTP client every GitHub tool shares; the token is applied per request, never stored. */
export function createGithubClient(settings: ConnectorSettings): HttpClient {
  return createHttpClient({
    settings,
    defaultBaseUrl: defaultGithubBaseUrl,
    authorize: (credentials) => ({ authorization: `Bearer ${credentials.token ?? ''}` }),
    headers: {
      accept: 'application/vnd.github+json',
      'x-github-api-version': githubApiVersion,
      // GitHub rejects requests without a user agent.
      'user-agent': 'patchbay-connector-github',
    },
    mapError: mapGithubError,
  });
}
