import {
  type ConnectorSettings,
  type Credentials,
  createHttpClient,
  type HttpRequest,
  type HttpResult,
} from '@patchbay/connector';
import { HttpError, PatchbayError } from '@patchbay/envelope';
import { normalizeJiraError, refusedLogin } from './jira-errors.js';
import { jiraBaseUrl, jiraBrowseUrl } from './jira-site.js';

/** One Jira REST call: a path under the site (`/rest/api/3/...`) and the scopes it needs, for error reports. */
export interface JiraRequest extends Omit<HttpRequest, 'path'> {
  path: `/rest/${string}`;
  scopes?: readonly string[];
}

/** The Jira client every tool shares: resolves the site per call, signs with Basic auth, maps Jira's error signals. */
export interface JiraClient {
  request<T = unknown>(credentials: Credentials, request: JiraRequest): Promise<HttpResult<T>>;
  /** The base URL calls for these credentials go to. */
  baseUrl(credentials: Credentials): string;
  /** Where a person opens an issue, when the base URL has browse pages. */
  browseUrl(credentials: Credentials, key: string): string | undefined;
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

/** Creates the Jira client. `settings.baseUrl` pins every call to one site or gateway; otherwise the `site` credential decides. */
export function createJiraClient(settings: ConnectorSettings): JiraClient {
  // Paths are always absolute (the site varies per user), so the shared client's base URL is never used.
  const http = createHttpClient({
    settings: { ...settings, baseUrl: undefined },
    defaultBaseUrl: 'https://api.atlassian.com',
    authorize: (credentials) => ({ authorization: basicAuthorization(credentials) }),
    headers: { 'user-agent': 'patchbay-connector-jira', 'x-atlassian-token': 'no-check' },
  });
  const baseUrl = (credentials: Credentials) => jiraBaseUrl(settings.baseUrl, credentials);
  return {
    baseUrl,
    browseUrl: (credentials, key) => jiraBrowseUrl(baseUrl(credentials), key),
    async request<T>(credentials: Credentials, request: JiraRequest): Promise<HttpResult<T>> {
      const { scopes = [], path, ...rest } = request;
      let result: HttpResult<T>;
      try {
        result = await http.request<T>(credentials, { ...rest, path: `${baseUrl(credentials)}${path}` });
      } catch (error) {
        throw HttpError.isHttpError(error) ? normalizeJiraError(error, scopes) : error;
      }
      const refused = refusedLogin(result.headers);
      if (refused) throw refused;
      return result;
    },
  };
}
