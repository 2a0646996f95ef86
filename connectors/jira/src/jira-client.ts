import type { ConnectorSettings, Credentials } from '@patchbay/connector';
import { PatchbayError } from '@patchbay/envelope';
import { createHttpClient, type HttpRequest, type HttpResult } from '@patchbay/helpers';
import { mapJiraError, refusedLogin } from './jira-errors.js';
import { jiraBrowseUrl, jiraSiteUrl, missingSite } from './jira-site.js';

/** One Jira REST call: a path under the site (`/rest/api/3/...`) and the scopes it needs, named in a refusal. */
export interface JiraRequest extends Omit<HttpRequest, 'path'> {
  path: `/rest/${string}`;
}

/** The Jira client every tool shares: one site, Basic auth per call, Jira's error signals mapped. */
export interface JiraClient {
  /** Origin of the configured site, undefined without one. Jira has no default site. */
  readonly origin: string | undefined;
  request<T = unknown>(credentials: Credentials, request: JiraRequest): Promise<HttpResult<T>>;
  /** Where a person opens an issue, when the site has browse pages. */
  browseUrl(key: string): string | undefined;
}

function basicAuthorization(credentials: Credentials): string {
  const { email, api_token: apiToken } = credentials;
  if (!email || !apiToken) {
    throw new PatchbayError(
      'invalid_credentials',
      'The Jira connection needs both the account email and an API token; reconnect with both.',
    );
  }
  return `Basic ${Buffer.from(`${email}:${apiToken}`, 'utf8').toString('base64')}`;
}

/** Creates the Jira client for the site in `settings.baseUrl`; throws at once when that is not a usable URL. */
export function createJiraClient(settings: ConnectorSettings): JiraClient {
  const site = jiraSiteUrl(settings.baseUrl);
  const http = createHttpClient({
    settings: { ...settings, baseUrl: site },
    // Never used: without a site every call fails before the client is asked to send anything.
    defaultBaseUrl: 'https://site-not-configured.invalid',
    authorize: (credentials) => ({ authorization: basicAuthorization(credentials) }),
    headers: { 'user-agent': 'patchbay-connector-jira', 'x-atlassian-token': 'no-check' },
    mapError: mapJiraError,
  });
  return {
    origin: site === undefined ? undefined : http.origin,
    browseUrl: (key) => (site === undefined ? undefined : jiraBrowseUrl(site, key)),
    async request<T>(credentials: Credentials, request: JiraRequest): Promise<HttpResult<T>> {
      if (site === undefined) throw missingSite();
      const result = await http.request<T>(credentials, request);
      // Jira may run a request with refused credentials as an anonymous user and answer 200.
      const refused = refusedLogin(result.headers);
      if (refused) throw refused;
      return result;
    },
  };
}
