import type { Credentials } from '@patchbay/connector';
import {
  type ConnectorSettings,
  createHttpClient,
  type HttpRequest,
  type HttpResult,
} from '@patchbay/connector';
import { HttpError } from '@patchbay/envelope';

/** Where the Notion API lives unless `baseUrl` says otherwise (a proxy, a recorded-traffic server). */
export const defaultNotionBaseUrl = 'https://api.notion.com/v1';

/**
 * The `Notion-Version` sent with every request: the version the official `@notionhq/client` (v5)
 * defaults to, in which databases hold data sources and pages are trashed with `in_trash`.
 */
export const defaultNotionVersion = '2025-09-03';

/** Notion integration capabilities this connector models as scopes. */
export const notionCapabilities = ['read_content', 'update_content', 'insert_content'] as const;
/** One Notion integration capability, named as a scope. */
export type NotionCapability = (typeof notionCapabilities)[number];

/** A request to the Notion API, with the capability the endpoint needs. */
export interface NotionRequest extends HttpRequest {
  /**
   * The capability Notion checks for this endpoint. Its `restricted_resource` refusal does not name
   * it, so the client adds it to the error for a precise `missing_scopes`.
   */
  capability?: NotionCapability;
}

/** The HTTP client every Notion tool shares; credentials are applied per request. */
export interface NotionClient {
  request<T = unknown>(credentials: Credentials, request: NotionRequest): Promise<HttpResult<T>>;
}

/** Settings of the Notion client: the common connector settings plus the API version. */
export interface NotionClientSettings extends ConnectorSettings {
  /** `Notion-Version` header; {@link defaultNotionVersion} unless set. */
  notionVersion?: string;
}

/** Notion's documented error body: `{ object: 'error', status, code, message, request_id }`. */
export interface NotionErrorBody {
  object: 'error';
  status: number;
  code: string;
  message: string;
  request_id?: string;
}

/** Narrows a parsed body to Notion's error shape. */
export function isNotionErrorBody(body: unknown): body is NotionErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { object?: unknown }).object === 'error' &&
    typeof (body as { code?: unknown }).code === 'string'
  );
}

/**
 * Adds what Notion's error body says beyond the status: `restricted_resource` means the
 * integration lacks the endpoint's capability, so that capability is reported missing.
 */
export function toNotionError(error: unknown, capability: NotionCapability | undefined): unknown {
  if (!HttpError.isHttpError(error) || !isNotionErrorBody(error.body)) return error;
  if (error.body.code === 'restricted_resource' && capability !== undefined) {
    return new HttpError({
      status: error.status,
      headers: error.headers,
      body: error.body,
      message: error.message,
      missingScopes: [capability],
    });
  }
  return error;
}

/** Creates the Notion client: bearer token, `Notion-Version`, JSON bodies, Notion-aware errors. */
export function createNotionClient(settings: NotionClientSettings): NotionClient {
  const http = createHttpClient({
    settings,
    defaultBaseUrl: defaultNotionBaseUrl,
    authorize: (credentials) => ({ authorization: `Bearer ${credentials.token ?? ''}` }),
    headers: {
      'notion-version': settings.notionVersion ?? defaultNotionVersion,
      'user-agent': 'patchbay-connector-notion',
    },
  });
  return {
    async request<T>(credentials: Credentials, request: NotionRequest): Promise<HttpResult<T>> {
      const { capability, ...httpRequest } = request;
      try {
        return await http.request<T>(credentials, httpRequest);
      } catch (error) {
        throw toNotionError(error, capability);
      }
    },
  };
}
