import { HttpError } from '@patchbay/envelope';
import type { HttpRequest } from '@patchbay/helpers';

/** One entry of a GraphQL `errors` array as Linear sends it. */
export interface LinearGraphqlError {
  message?: string;
  path?: (string | number)[];
  extensions?: {
    /** e.g. `AUTHENTICATION_ERROR`, `FORBIDDEN`, `RATELIMITED`, `INVALID_INPUT`. */
    code?: string;
    /** The same in words, e.g. `authentication error` (what @linear/sdk reads). */
    type?: string;
    userError?: boolean;
    userPresentableMessage?: string;
    statusCode?: number;
  };
}

/** A GraphQL response body. */
export interface GraphqlBody<T> {
  data?: T | null;
  errors?: LinearGraphqlError[];
}

/** Linear's error code of one GraphQL error, from `extensions.code` or else `extensions.type`. */
export function errorCode(error: LinearGraphqlError): string | undefined {
  const { code, type } = error.extensions ?? {};
  if (typeof code === 'string' && code !== '') return code.toUpperCase();
  if (typeof type === 'string' && type !== '') return type.trim().toUpperCase().replace(/\s+/g, '_');
  return undefined;
}

const inputCodes = new Set([
  'INVALID_INPUT',
  'USER_ERROR',
  'BAD_USER_INPUT',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_ERROR',
]);

/** The HTTP status that carries the same meaning as a Linear error code. */
function statusFor(code: string | undefined, error: LinearGraphqlError, httpStatus: number): number {
  switch (code) {
    case 'AUTHENTICATION_ERROR':
      return 401;
    case 'FORBIDDEN':
    case 'FEATURE_NOT_ACCESSIBLE':
      return 403;
    case 'RATELIMITED':
      return 429;
    // A plan limit (e.g. the free plan's issue count): waiting does not help.
    case 'USAGE_LIMIT_EXCEEDED':
      return 402;
    case 'LOCK_TIMEOUT':
      return 503;
    case 'INTERNAL_ERROR':
      return 500;
  }
  if (code !== undefined && inputCodes.has(code)) {
    return /entity not found|could not find/i.test(
      `${error.message} ${error.extensions?.userPresentableMessage}`,
    )
      ? 404
      : 400;
  }
  return httpStatus >= 400 ? httpStatus : 500;
}

/** Seconds until the exhausted budget refills, from Linear's epoch-millisecond reset headers. */
function retryAfter(headers: Headers, now: Date): string | undefined {
  const given = headers.get('retry-after');
  if (given) return given;
  const resets = (['requests', 'complexity'] as const)
    .map((budget) => ({
      remaining: headers.get(`x-ratelimit-${budget}-remaining`),
      reset: Number(headers.get(`x-ratelimit-${budget}-reset`)),
    }))
    .filter(({ reset }) => Number.isFinite(reset) && reset > 0);
  const exhausted = resets.filter(({ remaining }) => remaining?.trim() === '0');
  const relevant = exhausted.length > 0 ? exhausted : resets;
  if (relevant.length === 0) return undefined;
  const resetAt = Math.max(...relevant.map(({ reset }) => reset));
  return String(Math.max(0, Math.ceil((resetAt - now.getTime()) / 1000)));
}

/**
 * Turns Linear's GraphQL errors (sent with HTTP 200, 400 or 401) into the HTTP signal the envelope
 * mapping reads: the first error's code decides the status, `FORBIDDEN` names the call's scopes,
 * `RATELIMITED` gets a `Retry-After` from the reset headers, and the user-presentable message is
 * kept as the service's sentence. `undefined` when the body holds no GraphQL errors.
 */
export function graphqlError(
  httpStatus: number,
  headers: Headers,
  body: unknown,
  scopes: readonly string[],
  now = new Date(),
): HttpError | undefined {
  const errors = (body as GraphqlBody<unknown> | null | undefined)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const first = errors.find((error) => errorCode(error) !== undefined) ?? errors[0]!;
  const code = errorCode(first);
  const status = statusFor(code, first, httpStatus);
  const responseHeaders = new Headers(headers);
  if (status === 429) {
    const wait = retryAfter(headers, now);
    if (wait !== undefined) responseHeaders.set('retry-after', wait);
  }
  const message = first.extensions?.userPresentableMessage ?? first.message;
  return new HttpError({
    status,
    headers: responseHeaders,
    body: { message, ...(code ? { code } : {}) },
    missingScopes: code === 'FORBIDDEN' && scopes.length > 0 ? [...scopes] : undefined,
  });
}

/** Linear's error signals on a non-2xx answer, for the shared client's `mapError`. */
export function mapLinearError(error: HttpError, request: HttpRequest): HttpError {
  return graphqlError(error.status, error.headers, error.body, request.requiredScopes ?? []) ?? error;
}
