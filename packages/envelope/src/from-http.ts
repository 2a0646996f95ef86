import { failure } from './constructors.js';
import type { ErrorEnvelope } from './envelope.js';
import type { HttpResponseLike } from './http-error.js';
import { missingScopesOf, readHeader, retryAfterSeconds } from './http-headers.js';
import type { Redactor } from './redact.js';

/** What the HTTP mapping needs from the caller's context. */
export interface HttpMappingContext {
  connector?: string | undefined;
  setupUrl?: string | undefined;
  now?: (() => Date) | undefined;
  /**
   * Applied to service text before it is split, squeezed or shortened: afterwards a secret could
   * survive in a form the final redaction no longer recognises.
   */
  redact?: Redactor | undefined;
}

const identity: Redactor = (text) => text;

const maxServiceMessage = 300;

// Slack answers HTTP 200 with `{ ok: false, error }`; these codes mean the same as a status code.
const slackCredentialErrors = new Set([
  'not_authed',
  'invalid_auth',
  'token_revoked',
  'token_expired',
  'account_inactive',
]);

/** The service's own error sentence from common body shapes: one line, no stack, shortened. */
export function serviceMessage(body: unknown, redact: Redactor = identity): string | undefined {
  let text: unknown;
  if (typeof body === 'string') {
    // HTML error pages are raw dumps, not sentences.
    text = /^\s*</.test(body) ? undefined : body;
  } else if (body !== null && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const nested = record.error;
    const errors = record.errors;
    text =
      record.message ??
      record.error_description ??
      (typeof nested === 'string'
        ? nested
        : (nested as Record<string, unknown> | null | undefined)?.message) ??
      (Array.isArray(errors) && errors.length > 0
        ? errors
            .map((item) =>
              typeof item === 'string' ? item : (item as Record<string, unknown> | null)?.message,
            )
            .filter((item) => typeof item === 'string')
            .join('; ')
        : undefined) ??
      (Array.isArray(record.errorMessages) ? record.errorMessages.join('; ') : undefined);
  }
  if (typeof text !== 'string') return undefined;
  // A stack trace starts at the first `at ...` frame; keep only what comes before it.
  const withoutStack = redact(text).split(/\n\s*at\s/)[0] ?? '';
  const oneLine = withoutStack.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return undefined;
  return oneLine.length > maxServiceMessage ? `${oneLine.slice(0, maxServiceMessage - 1)}…` : oneLine;
}

function withDetail(base: string, detail: string | undefined): string {
  return detail ? `${base} The service said: ${detail}` : base;
}

/**
 * Whether an HTTP answer is a rate limit: a 429, or a 403 that says so (`X-RateLimit-Remaining: 0`,
 * a `Retry-After`, or a body naming the rate limit), as many services send it. The one rule the
 * envelope mapping and a connector's credential check share.
 */
export function isRateLimitedResponse(response: HttpResponseLike): boolean {
  return response.status === 429 || (response.status === 403 && isRateLimitSignal(response));
}

function isRateLimitSignal(response: HttpResponseLike): boolean {
  const body = response.body as Record<string, unknown> | null | undefined;
  return (
    readHeader(response.headers, 'x-ratelimit-remaining')?.trim() === '0' ||
    readHeader(response.headers, 'retry-after') !== undefined ||
    (typeof body === 'object' &&
      body !== null &&
      (/rate limit/i.test(String(body.message ?? '')) || body.error === 'ratelimited'))
  );
}

function rateLimited(response: HttpResponseLike, context: HttpMappingContext, now: Date): ErrorEnvelope {
  const retryAfterS = retryAfterSeconds(response.headers, now);
  return failure('rate_limited', {
    connector: context.connector,
    retryAfterS,
    meta: { status_code: response.status },
    userMessage:
      retryAfterS !== undefined
        ? `The service is rate limiting requests; try again in ${retryAfterS} seconds.`
        : 'The service is rate limiting requests; try again later.',
  });
}

function permissionDenied(
  response: HttpResponseLike,
  context: HttpMappingContext,
  explicitScopes: string[] | undefined,
  detail: string | undefined,
): ErrorEnvelope {
  const missingScopes = missingScopesOf(response, explicitScopes, context.redact);
  return failure('permission_denied', {
    connector: context.connector,
    setupUrl: context.setupUrl,
    missingScopes,
    meta: { status_code: response.status },
    userMessage: missingScopes?.length
      ? `The connection is missing the permission${missingScopes.length > 1 ? 's' : ''} ${missingScopes.join(', ')}.`
      : withDetail('The connection does not have permission for this action.', detail),
  });
}

/** Maps an HTTP failure to an envelope by status, headers and body. */
export function fromHttp(
  response: HttpResponseLike,
  context: HttpMappingContext,
  explicitScopes?: string[],
): ErrorEnvelope {
  const now = context.now?.() ?? new Date();
  const { status } = response;
  const detail = serviceMessage(response.body, context.redact);
  const common = { connector: context.connector, meta: { status_code: status } };
  if (status === 401) return failure('invalid_credentials', { ...common, setupUrl: context.setupUrl });
  if (isRateLimitedResponse(response)) return rateLimited(response, context, now);
  if (status === 403) return permissionDenied(response, context, explicitScopes, detail);
  if (status === 404 || status === 410) {
    return failure('not_found', { ...common, userMessage: withDetail('The item was not found.', detail) });
  }
  if (status === 409) {
    return failure('conflict', {
      ...common,
      userMessage: withDetail('The request conflicts with the current state.', detail),
    });
  }
  if (status === 408 || status === 504) return failure('timeout', common);
  if (status === 400 || status === 422) {
    return failure('invalid_arguments', {
      ...common,
      userMessage: withDetail('The service rejected the request as invalid.', detail),
    });
  }
  if (status >= 500 && status <= 599) {
    return failure('upstream_error', {
      ...common,
      retryAfterS: retryAfterSeconds(response.headers, now),
      userMessage: withDetail(
        'The service had a problem on its side and did not finish the request; try again in a moment.',
        detail,
      ),
    });
  }
  if (status >= 400 && status <= 499) {
    return failure('upstream_error', {
      ...common,
      retryable: false,
      userMessage: withDetail(
        'The service refused the request, so it was not carried out; check the details and try again.',
        detail,
      ),
    });
  }
  const body = response.body as Record<string, unknown> | null | undefined;
  if (typeof body === 'object' && body !== null && body.ok === false) {
    // An API that reports errors in a 200 body (Slack): its error code decides, else the service failed.
    return (
      fromApiErrorBody(body, context, response.headers) ??
      failure('upstream_error', {
        ...common,
        retryable: false,
        userMessage: withDetail('The service reported an error.', detail),
      })
    );
  }
  return failure('internal_error', {
    ...common,
    userMessage:
      'The service gave an answer this connector does not understand, so the action may not have been completed; check the service before trying again.',
  });
}

/**
 * Maps a Slack-style API error body (`{ ok: false, error: "missing_scope", needed }`, sent with
 * HTTP 200) to an envelope, or `undefined` when the error code is not one with a fixed meaning.
 */
export function fromApiErrorBody(
  body: Record<string, unknown>,
  context: HttpMappingContext,
  headers?: HttpResponseLike['headers'],
): ErrorEnvelope | undefined {
  const code = body.error;
  if (typeof code !== 'string') return undefined;
  // No HTTP status is worth reporting here: the service said 200 and meant an error.
  const withoutMeta = ({ meta: _meta, ...envelope }: ErrorEnvelope): ErrorEnvelope => envelope;
  if (code === 'missing_scope') {
    return withoutMeta(permissionDenied({ status: 200, body }, context, undefined, undefined));
  }
  if (code === 'ratelimited' || code === 'rate_limited') {
    return withoutMeta(rateLimited({ status: 200, headers }, context, context.now?.() ?? new Date()));
  }
  if (/(?:^|_)not_found$/.test(code)) {
    // channel_not_found, message_not_found, users_not_found, …
    return failure('not_found', { connector: context.connector });
  }
  if (slackCredentialErrors.has(code)) {
    return failure('invalid_credentials', { connector: context.connector, setupUrl: context.setupUrl });
  }
  return undefined;
}
