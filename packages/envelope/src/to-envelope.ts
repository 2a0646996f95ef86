import { failure } from './constructors.js';
import { type ArgumentIssue, type Envelope, type ErrorEnvelope, isEnvelope, type MissingField } from './envelope.js';
import { type ErrorType, errorTypes } from './error-types.js';
import { HttpError, type HttpResponseLike } from './http-error.js';
import { PatchbayError } from './patchbay-error.js';
import { redactString, redactValue } from './redact.js';

/** What `toEnvelope` knows about the call that failed. */
export interface EnvelopeContext {
  /** Connector id, copied into the envelope. */
  connector?: string | undefined;
  /** Setup URL, added to envelopes the user fixes by (re)connecting. */
  setupUrl?: string | undefined;
  /** Tool name, for the envelope's metadata. */
  tool?: string | undefined;
  /** Credential values to remove from every string. */
  secrets?: Iterable<string> | undefined;
  /** Question per top-level input field, for `needs_input`. */
  questions?: Readonly<Record<string, string>> | undefined;
  /** Correlation id, copied into metadata. */
  correlationId?: string | undefined;
  /** Clock for HTTP-date `Retry-After` values; defaults to now. */
  now?: (() => Date) | undefined;
}

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const timeoutCodes = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ESOCKETTIMEDOUT']);
const maxServiceMessage = 300;

function header(headers: HttpResponseLike['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Seconds to wait, from `Retry-After` (seconds or HTTP date) or reset headers (epoch seconds). */
export function retryAfterSeconds(headers: HttpResponseLike['headers'], now: Date = new Date()): number | undefined {
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
  }
  const reset = header(headers, 'x-ratelimit-reset') ?? header(headers, 'ratelimit-reset');
  if (reset !== undefined) {
    const value = Number(reset);
    if (Number.isFinite(value)) {
      // Epoch seconds (GitHub) versus a delta (IETF RateLimit-Reset).
      return value > 1_000_000_000 ? Math.max(0, Math.ceil(value - now.getTime() / 1000)) : Math.max(0, Math.ceil(value));
    }
  }
  return undefined;
}

function isRateLimitSignal(response: HttpResponseLike): boolean {
  return (
    header(response.headers, 'x-ratelimit-remaining') === '0' ||
    header(response.headers, 'retry-after') !== undefined ||
    (typeof response.body === 'object' &&
      response.body !== null &&
      /rate limit/i.test(String((response.body as Record<string, unknown>).message ?? '')))
  );
}

/** Scopes a 403 says are missing: explicit list, GitHub's accepted-vs-granted headers, Slack's `needed`. */
function missingScopesOf(response: HttpResponseLike, explicit: string[] | undefined): string[] | undefined {
  if (explicit?.length) return explicit;
  const split = (value: string | undefined) =>
    (value ?? '')
      .split(/[\s,]+/)
      .map((scope) => scope.trim())
      .filter(Boolean);
  const accepted = split(header(response.headers, 'x-accepted-oauth-scopes'));
  if (accepted.length) {
    const granted = new Set(split(header(response.headers, 'x-oauth-scopes')));
    const missing = accepted.filter((scope) => !granted.has(scope));
    if (missing.length) return missing;
  }
  const body = response.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && typeof body.needed === 'string') return split(body.needed);
  return undefined;
}

/** The service's own error sentence, from common body shapes, shortened. */
function serviceMessage(body: unknown): string | undefined {
  let text: unknown;
  if (typeof body === 'string') text = body.trim().startsWith('<') ? undefined : body;
  else if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const errors = record.errors;
    text =
      record.message ??
      record.error_description ??
      (typeof record.error === 'string' ? record.error : (record.error as Record<string, unknown> | undefined)?.message) ??
      (Array.isArray(errors) && errors.length
        ? errors.map((item) => (typeof item === 'string' ? item : (item as Record<string, unknown>)?.message)).join('; ')
        : undefined) ??
      (Array.isArray(record.errorMessages) ? record.errorMessages.join('; ') : undefined);
  }
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > maxServiceMessage ? `${oneLine.slice(0, maxServiceMessage - 1)}…` : oneLine;
}

function withDetail(base: string, detail: string | undefined): string {
  return detail ? `${base} The service said: ${detail}` : base;
}

function fromHttp(response: HttpResponseLike, context: EnvelopeContext, explicitScopes?: string[]): ErrorEnvelope {
  const now = context.now?.() ?? new Date();
  const { status } = response;
  const detail = serviceMessage(response.body);
  const common = { connector: context.connector, meta: { status_code: status } };
  if (status === 401) {
    return failure('invalid_credentials', { ...common, setupUrl: context.setupUrl });
  }
  if (status === 429 || (status === 403 && isRateLimitSignal(response))) {
    const retryAfterS = retryAfterSeconds(response.headers, now);
    return failure('rate_limited', {
      ...common,
      retryAfterS,
      userMessage:
        retryAfterS !== undefined
          ? `The service is rate limiting requests; try again in ${retryAfterS} seconds.`
          : 'The service is rate limiting requests; try again later.',
    });
  }
  if (status === 403) {
    const missingScopes = missingScopesOf(response, explicitScopes);
    return failure('permission_denied', {
      ...common,
      setupUrl: context.setupUrl,
      missingScopes,
      userMessage: missingScopes?.length
        ? `The connection is missing the permission${missingScopes.length > 1 ? 's' : ''} ${missingScopes.join(', ')}.`
        : withDetail('The connection does not have permission for this action.', detail),
    });
  }
  if (status === 404) return failure('not_found', { ...common, userMessage: withDetail('The item was not found.', detail) });
  if (status === 409) return failure('conflict', { ...common, userMessage: withDetail('The request conflicts with the current state.', detail) });
  if (status === 408 || status === 504) return failure('timeout', common);
  if (status === 400 || status === 422) {
    return failure('invalid_arguments', {
      ...common,
      userMessage: withDetail('The service rejected the request as invalid.', detail),
    });
  }
  if (status >= 500) return failure('upstream_error', { ...common, userMessage: withDetail(`The service failed (HTTP ${status}).`, detail) });
  if (status >= 400) return failure('upstream_error', { ...common, retryable: false, userMessage: withDetail(`The service refused the request (HTTP ${status}).`, detail) });
  return failure('internal_error', { ...common, userMessage: `The service answered with an unexpected HTTP ${status}.` });
}

interface ZodLikeIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
}

function isZodError(value: unknown): value is { issues: ZodLikeIssue[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { issues?: unknown }).issues) &&
    ((value as Error).name === 'ZodError' || (value as Error).name === '$ZodError')
  );
}

function fromZod(error: { issues: ZodLikeIssue[] }, context: EnvelopeContext): ErrorEnvelope {
  const missing: MissingField[] = [];
  const issues: ArgumentIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || '(input)';
    const isMissing =
      issue.code === 'invalid_type' &&
      ('input' in issue ? issue.input === undefined : /received undefined|required/i.test(issue.message));
    if (isMissing) {
      const top = String(issue.path[0] ?? path);
      const question = (issue.path.length === 1 ? context.questions?.[top] : undefined) ?? `What should I use for ${path.replaceAll('_', ' ')}?`;
      if (!missing.some((field) => field.field === path)) missing.push({ field: path, question });
    } else {
      issues.push({ path, message: issue.message });
    }
  }
  const common = { connector: context.connector };
  // Wrong shapes the model can fix come first: asking the user is only right when nothing else is wrong.
  if (issues.length > 0) {
    return failure('invalid_arguments', {
      ...common,
      issues,
      userMessage: `Invalid arguments: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      ...(missing.length ? { missing } : {}),
    });
  }
  return failure('needs_input', {
    ...common,
    missing,
    userMessage: missing.map((field) => field.question).join(' '),
  });
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (networkCodes.has(code) || timeoutCodes.has(code))) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isResponseLike(value: unknown): value is HttpResponseLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as HttpResponseLike).status === 'number' &&
    'headers' in value &&
    !('ok' in value && typeof (value as { ok?: unknown }).ok === 'boolean' && !(value instanceof Response))
  );
}

function classify(value: unknown, context: EnvelopeContext): Envelope {
  if (isEnvelope(value)) {
    if (value.ok || value.connector !== undefined || context.connector === undefined) return value;
    return { ...value, connector: context.connector };
  }
  if (value instanceof HttpError) return fromHttp(value, context, value.missingScopes);
  if (typeof Response !== 'undefined' && value instanceof Response) return fromHttp({ status: value.status, headers: value.headers }, context);
  if (isZodError(value)) return fromZod(value, context);
  if (PatchbayError.isInstance(value) && (errorTypes as readonly string[]).includes(value.code)) {
    return failure(value.code as ErrorType, { connector: context.connector, userMessage: value.message });
  }
  if (value instanceof Error || (typeof value === 'object' && value !== null && 'name' in value)) {
    const name = String((value as Error).name);
    if (name === 'TimeoutError') return failure('timeout', { connector: context.connector });
    if (name === 'AbortError') {
      return failure('timeout', { connector: context.connector, userMessage: 'The request was cancelled before it finished.' });
    }
    const code = errorCode(value);
    if (code && timeoutCodes.has(code)) return failure('timeout', { connector: context.connector });
    if (code || (value instanceof TypeError && /fetch failed|network/i.test(value.message))) {
      return failure('network_error', { connector: context.connector });
    }
  }
  if (isResponseLike(value)) return fromHttp(value, context);
  // Anything else: a generic message, no stack and no internals.
  return failure('internal_error', { connector: context.connector });
}

/**
 * Maps anything — an envelope, a `Response`, an `HttpError`, a zod error, a network/abort/timeout
 * error, or an unknown value — to an envelope. Never throws. Every string in the result is
 * redacted of the context's secrets and of common token shapes.
 */
export function toEnvelope(value: unknown, context: EnvelopeContext = {}): Envelope {
  let envelope: Envelope;
  try {
    envelope = classify(value, context);
  } catch {
    envelope = failure('internal_error', {});
  }
  const meta = { ...(envelope.meta ?? {}) };
  if (context.tool !== undefined && meta.tool === undefined) meta.tool = context.tool;
  if (context.correlationId !== undefined && meta.correlation_id === undefined) meta.correlation_id = context.correlationId;
  if (Object.keys(meta).length > 0) envelope = { ...envelope, meta };
  try {
    return redactValue(envelope, context.secrets ?? []);
  } catch {
    return failure('internal_error', {});
  }
}

/** Redacts one string with the context's secrets; exported for log and error paths. */
export function redactWith(text: string, context: Pick<EnvelopeContext, 'secrets'> = {}): string {
  return redactString(text, context.secrets ?? []);
}
