import type { ConnectorSettings } from '@patchbay/connector';
import { createHttpClient, type HttpClient } from '@patchbay/helpers';
import { mapDiscordError } from './discord-errors.js';
import type { DiscordPermission } from './discord-scopes.js';

/** Where the Discord REST API (v10) lives unless `baseUrl` says otherwise. */
export const defaultDiscordBaseUrl = 'https://discord.com/api/v10';

// Discord requires `DiscordBot ($url, $versionNumber)`; other user agents may be blocked.
const userAgent = 'DiscordBot (https://www.npmjs.com/package/@patchbay/connector-discord, 1.0)';

/**
 * The HTTP client every Discord tool shares; the bot token is applied per request. A request names
 * the permissions Discord checks for its endpoint in `requiredScopes`: its `Missing Permissions`
 * (50013) refusal does not name them, so they are reported missing (and `VIEW_CHANNEL`, when
 * listed, for `Missing Access`, 50001).
 */
export type DiscordClient = HttpClient<DiscordPermission>;

/** Creates the Discord client: `Authorization: Bot <token>`, Discord's user agent, Discord-aware errors. */
export function createDiscordClient(settings: ConnectorSettings): DiscordClient {
  return createHttpClient<DiscordPermission>({
    settings,
    defaultBaseUrl: defaultDiscordBaseUrl,
    // Users often paste the token with its `Bot ` prefix; accept both.
    authorize: (credentials) => ({
      authorization: `Bot ${(credentials.token ?? '').replace(/^Bot\s+/i, '')}`,
    }),
    headers: { 'user-agent': userAgent },
    mapError: mapDiscordError,
  });
}
