import type { ConnectorSettings, Credentials } from '@patchbay/connector';
import { HttpError, PatchbayError } from '@patchbay/envelope';
import { createHttpClient } from '@patchbay/helpers';
import { type GraphqlBody, graphqlError, mapLinearError } from './linear-errors.js';

/** Where the Linear API lives unless `baseUrl` says otherwise; the GraphQL endpoint is `<baseUrl>/graphql`. */
export const defaultLinearBaseUrl = 'https://api.linear.app';

/** One GraphQL operation and the scopes it needs (named when Linear refuses it). */
export interface LinearOperation {
  query: string;
  variables?: Record<string, unknown>;
  requiredScopes?: readonly string[];
  signal?: AbortSignal;
}

/** The Linear client every tool shares: GraphQL over the shared fetch client, Linear's errors mapped. */
export interface LinearClient {
  /** Origin of the configured base URL: the only place credentials are sent. */
  readonly origin: string;
  /** Origin of the default base URL. */
  readonly defaultOrigin: string;
  /** Runs one operation and returns its `data`; throws an `HttpError` carrying Linear's meaning otherwise. */
  graphql<T>(credentials: Credentials, operation: LinearOperation): Promise<T>;
}

/**
 * Personal API keys (`lin_api_…`) go in the header as they are; OAuth access tokens need `Bearer`.
 * A value that already names its scheme is left alone.
 */
export function linearAuthorization(apiKey: string): string {
  const key = apiKey.trim();
  if (/^bearer\s/i.test(key) || key.startsWith('lin_api_')) return key;
  return `Bearer ${key}`;
}

/** Creates the Linear client. */
export function createLinearClient(settings: ConnectorSettings): LinearClient {
  const http = createHttpClient({
    settings,
    defaultBaseUrl: defaultLinearBaseUrl,
    authorize: (credentials) => {
      if (!credentials.api_key?.trim()) {
        throw new PatchbayError('invalid_credentials', 'The Linear connection has no API key; reconnect it.');
      }
      return { authorization: linearAuthorization(credentials.api_key) };
    },
    headers: { 'user-agent': 'patchbay-connector-linear' },
    mapError: mapLinearError,
  });
  return {
    origin: http.origin,
    defaultOrigin: http.defaultOrigin,
    async graphql<T>(credentials: Credentials, operation: LinearOperation): Promise<T> {
      const { query, variables, requiredScopes = [], signal } = operation;
      const result = await http.request<GraphqlBody<T>>(credentials, {
        method: 'POST',
        path: 'graphql',
        json: variables === undefined ? { query } : { query, variables },
        requiredScopes,
        signal,
      });
      // GraphQL errors usually come with HTTP 200: the same mapping as for a failed status.
      const failure = graphqlError(result.status, result.headers, result.data, requiredScopes);
      if (failure) throw failure;
      const data = result.data?.data;
      if (data === null || data === undefined || typeof data !== 'object') {
        throw new HttpError({
          status: 502,
          headers: result.headers,
          body: { message: 'Linear answered without data.' },
        });
      }
      return data;
    },
  };
}
