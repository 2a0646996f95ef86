import { HttpError } from '@patchbay/envelope';
import type { HttpRequest } from '@patchbay/helpers';

/** What Jira Cloud sends in a failure body: `{ errorMessages: [], errors: { field: message } }`. */
export interface JiraErrorBody {
  errorMessages?: string[];
  errors?: Record<string, string>;
  /** The API gateway's shape for OAuth/scoped-token refusals: `{ code: 401, message }`. */
  message?: string;
}

// Jira's login filter names why it ignored the credentials; the request then runs anonymously.
const refusedLogins = new Set(['AUTHENTICATED_FAILED', 'AUTHENTICATION_DENIED']);

/**
 * A Jira answer whose `X-Seraph-LoginReason` says the credentials were refused, or `undefined`.
 * Jira can answer such a request with 200 as an anonymous user, so this is checked on successes too.
 */
export function refusedLogin(headers: Headers): HttpError | undefined {
  const reason = headers
    .get('x-seraph-loginreason')
    ?.split(',')
    .map((part) => part.trim().toUpperCase());
  if (!reason?.some((part) => refusedLogins.has(part))) return undefined;
  const captcha = reason.includes('AUTHENTICATION_DENIED');
  return new HttpError({
    status: 401,
    headers,
    body: {
      message: captcha
        ? 'Jira asks for a CAPTCHA on this account after failed logins; sign in once in the browser, then reconnect.'
        : 'Jira refused the email and API token.',
    },
  });
}

function bodyOf(error: HttpError): JiraErrorBody | undefined {
  return error.body !== null && typeof error.body === 'object' ? (error.body as JiraErrorBody) : undefined;
}

function secondsUntil(isoTime: string | null, now: Date): number | undefined {
  if (!isoTime) return undefined;
  const at = Date.parse(isoTime);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * Jira's error signals for the shared client's `mapError`, rewritten into the HTTP signals the
 * envelope mapping reads:
 * - a refused login (`X-Seraph-LoginReason`) is a 401 whatever the status;
 * - the gateway's 401 "scope does not match" is a missing scope (403 with the call's `requiredScopes`), not bad credentials;
 * - a 429 or 503 whose `X-RateLimit-Reset` is an ISO time (Jira's format) gets a `Retry-After` in seconds;
 * - a 400 with field errors names each field, since `errorMessages` is then empty.
 */
export function mapJiraError(error: HttpError, request: HttpRequest, now = new Date()): HttpError {
  const refused = refusedLogin(error.headers);
  if (refused) return refused;
  const body = bodyOf(error);
  if (error.status === 401 && /scope does not match/i.test(body?.message ?? '')) {
    return new HttpError({
      status: 403,
      headers: error.headers,
      body: { message: 'The Jira token was not granted the scopes this action needs.' },
      missingScopes: [...(request.requiredScopes ?? [])],
    });
  }
  if ((error.status === 429 || error.status === 503) && !error.headers.has('retry-after')) {
    const wait = secondsUntil(error.headers.get('x-ratelimit-reset'), now);
    if (wait !== undefined) {
      const headers = new Headers(error.headers);
      headers.set('retry-after', String(wait));
      return new HttpError({ status: error.status, headers, body: error.body });
    }
  }
  const fieldErrors = Object.entries(body?.errors ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  if (fieldErrors.length > 0 && !body?.errorMessages?.length) {
    return new HttpError({
      status: error.status,
      headers: error.headers,
      body: { message: fieldErrors.map(([field, message]) => `${field}: ${message}`).join('; ') },
    });
  }
  return error;
}
