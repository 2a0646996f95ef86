import type { ConnectorSettings } from '@patchbay/connector';
import { createHttpClient, type HttpClient } from '@patchbay/helpers';
import { mapNotionError } from './notion-errors.js';
import type { NotionCapability } from './notion-scopes.js';

/** Where the Notion API lives unless `baseUrl` says otherwise (a proxy, a recorded-traffic server). */
export const defaultNotionBaseUrl = 'https://api.notion.com/v1';

/**
 * The `Notion-Version` sent with every request: the version the official `@notionhq/client` (v5)
 * defaults to, in which databases hold data sources and pages are trashed with `in_trash`.
 */
export const defaultNotionVersion = '2025-09-03';

/**
 * The HTTP client every Notion tool shares. A request names the capability Notion checks for its
 * endpoint in `requiredScopes`, so a `restricted_resource` refusal reports it missing.
 */
export type NotionClient = HttpClient<NotionCapability>;

/** Settings of the Notion client: the common connector settings plus the API version. */
export interface NotionClientSettings extends ConnectorSettings {
  /** `Notion-Version` header; {@link defaultNotionVersion} unless set. */
  notionVersion?: string;
}

/** Creates the Notion client: bearer token, `Notion-Version`, JSON bodies, Notion-aware errors. */
export function createNotionClient(settings: NotionClientSettings): NotionClient {
  return createHttpClient<NotionCapability>({
    settings,
    defaultBaseUrl: defaultNotionBaseUrl,
    authorize: (credentials) => ({ authorization: `Bearer ${credentials.token ?? ''}` }),
    headers: {
      'notion-version': settings.notionVersion ?? defaultNotionVersion,
      'user-agent': 'patchbay-connector-notion',
    },
    mapError: mapNotionError,
  });
}
