import { HttpError } from '@patchbay/envelope';
import type { HttpRequest } from '@patchbay/helpers';
import type { DiscordPermission } from './discord-scopes.js';

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
 * Discord's error signals beyond the status, for the shared client's `mapError`: `retry_after` (float seconds) and the
 * write-limit codes become a 429 with `Retry-After`; `Missing Permissions` names the endpoint's
 * `requiredScopes`; `Missing Access` names `VIEW_CHANNEL` on channel endpoints; form errors become one readable message.
 */
export function mapDiscordError(error: HttpError, request: HttpRequest<DiscordPermission>): HttpError {
  const permissions = request.requiredScopes;
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
        ? permissions && [...permissions]
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
