import {
  type ConnectorSettings,
  type Credentials,
  createHttpClient,
  type HttpRequest,
  type HttpResult,
} from '@patchbay/connector';
import { HttpError } from '@patchbay/envelope';
import type { DiscordPermission } from './discord-permissions.js';

/** Where the Discord REST API (v10) lives unless `baseUrl` says otherwise. */
export const defaultDiscordBaseUrl = 'https://discord.com/api/v10';

// Discord requires `DiscordBot ($url, $versionNumber)`; other user agents may be blocked.
const userAgent = 'DiscordBot (https://www.npmjs.com/package/@patchbay/connector-discord, 1.0)';

/** A request to Discord, with the permissions the endpoint needs in the channel. */
export interface DiscordRequest extends HttpRequest {
  /**
   * Permissions Discord checks for this endpoint. Its `Missing Permissions` (50013) refusal does
   * not name them, so the client reports these as missing (and `VIEW_CHANNEL`, when listed, for
   * `Missing Access`, 50001).
   */
  permissions?: DiscordPermission[];
}

/** The HTTP client every Discord tool shares; the bot token is applied per request. */
export interface DiscordClient {
  request<T = unknown>(credentials: Credentials, request: DiscordRequest): Promise<HttpResult<T>>;
}

/** Discord's documented error body: `{ code, message, errors? }`; a 429 adds `retry_after` and `global`. */
export interface DiscordErrorBody {
  code?: number;
  message?: string;
  errors?: unknown;
  retry_after?: number;
  global?: boolean;
}

/** JSON error codes that mean "slow down" whatever the HTTP status. */
const rateLimitCodes = new Set([
  20016, // slowmode
  20028, // channel write rate limit
  20029, // server write rate limit
  40062, // service resource rate limited
]);
const missingAccess = 50001;
const missingPermissions = 50013;

function errorBody(body: unknown): DiscordErrorBody | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as DiscordErrorBody)
    : undefined;
}

/** Flattens Discord's nested `errors` (`{ content: { _errors: [{ code, message }] } }`) into `path: message` lines. */
export function formErrors(errors: unknown, path = ''): string[] {
  if (typeof errors !== 'object' || errors === null) return [];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const item of value) {
        const message = (item as { message?: unknown })?.message;
        if (typeof message === 'string') lines.push(path ? `${path}: ${message}` : message);
      }
    } else {
      lines.push(...formErrors(value, path ? `${path}.${key}` : key));
    }
  }
  return lines;
}

/**
 * Adds what Discord's error body says beyond the status: `retry_after` (float seconds) and the
 * write-limit codes become a 429 with `Retry-After`; `Missing Permissions` names the endpoint's
 * permissions; `Missing Access` names `VIEW_CHANNEL` on channel endpoints; form errors become one readable message.
 */
export function toDiscordError(error: unknown, permissions: DiscordPermission[] | undefined): unknown {
  if (!HttpError.isHttpError(error)) return error;
  const body = errorBody(error.body);
  if (error.status === 429 || (body?.code !== undefined && rateLimitCodes.has(body.code))) {
    const headers = new Headers(error.headers);
    // The body's float is more precise than the header's whole seconds, and present when the header is not.
    if (typeof body?.retry_after === 'number' && Number.isFinite(body.retry_after)) {
      headers.set('retry-after', String(body.retry_after));
    }
    return new HttpError({ status: 429, headers, body: error.body, message: error.message });
  }
  if (error.status === 403) {
    // Every Discord response carries X-RateLimit-Remaining; a refusal that happens to use the last
    // request of a bucket must not read as a rate limit.
    const headers = new Headers();
    for (const [name, value] of error.headers) if (!name.startsWith('x-ratelimit')) headers.set(name, value);
    // Missing Access on a channel means it is hidden from the bot; on a server, that the bot is not in it.
    const missingScopes =
      body?.code === missingPermissions
        ? permissions
        : body?.code === missingAccess && permissions?.includes('VIEW_CHANNEL')
          ? ['VIEW_CHANNEL']
          : undefined;
    return new HttpError({ status: 403, headers, body: error.body, message: error.message, missingScopes });
  }
  const details = formErrors(body?.errors);
  if (details.length > 0) {
    return new HttpError({
      status: error.status,
      headers: error.headers,
      body: { code: body?.code, message: `${body?.message ?? 'Invalid request'}: ${details.join('; ')}` },
      message: error.message,
    });
  }
  return error;
}

/** Creates the Discord client: `Authorization: Bot <token>`, Discord's user agent, Discord-aware errors. */
export function createDiscordClient(settings: ConnectorSettings): DiscordClient {
  const http = createHttpClient({
    settings,
    defaultBaseUrl: defaultDiscordBaseUrl,
    // Users often paste the token with its `Bot ` prefix; accept both.
    authorize: (credentials) => ({
      authorization: `Bot ${(credentials.token ?? '').replace(/^Bot\s+/i, '')}`,
    }),
    headers: { 'user-agent': userAgent },
  });
  return {
    async request<T>(credentials: Credentials, request: DiscordRequest): Promise<HttpResult<T>> {
      const { permissions, ...httpRequest } = request;
      try {
        return await http.request<T>(credentials, httpRequest);
      } catch (error) {
        throw toDiscordError(error, permissions);
      }
    },
  };
}
