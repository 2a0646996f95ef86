import { failure } from './constructors.js';
import { type Envelope, type ErrorEnvelope, envelopeSchema } from './envelope.js';
import { errorTypeOfCode, isPatchbayErrorCode } from './error-codes.js';
import type { ErrorType } from './error-types.js';
import { finalizeEnvelope } from './finalize-envelope.js';
import { fromApiErrorBody, fromHttp } from './from-http.js';
import { fromZod, isZodError } from './from-zod.js';
import { HttpError, type HttpResponseLike } from './http-error.js';
import { PatchbayError } from './patchbay-error.js';
import { createRedactor, type Redactor, redactString } from './redact.js';

export { retryAfterSeconds } from './http-headers.js';

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
  /** The raw arguments that failed validation: lets a zod error tell absent fields from wrong ones. */
  input?: unknown;
  /** Correlation id, copied into metadata. */
  correlationId?: string | undefined;
  /** Clock for HTTP-date `Retry-After` values; defaults to now. */
  now?: (() => Date) | undefined;
  /**
   * Whether running the call again is harmless (a read, or a write declared idempotent). `false`: a
   * network failure that may have come after the request reached the service (a connection reset,
   * a socket closed mid-answer) is answered `retryable: false`, saying it may have taken effect.
   * Unset: as `true`. A failure before the request left (refused, no such host) stays retryable.
   */
  harmlessToRepeat?: boolean | undefined;
}

/**
 * What an answer adds when a call that is not harmless to repeat stopped after it may have reached the
 * service (a lost connection here; a deadline or a cancel in the orchestrator): one wording everywhere.
 */
export const mayHaveTakenEffect = 'It may still have taken effect: check before running it again.';

// Failures before the request left this machine (no connection, no name, a refused TLS handshake):
// the service cannot have seen the request, so sending it again is always safe.
const unreachedCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UND_ERR_CONNECT_TIMEOUT',
]);
// Failures of a connection that was up: the request may have reached the service and been acted on.
const droppedCodes = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const timeoutCodes = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
// Causes nest (fetch → undici → AggregateError → socket error); five levels reach every real one.
const maxCauseDepth = 5;

// Failures a user fixes by (re)connecting: worth pointing at the setup page.
const setupErrorTypes = new Set<ErrorType>([
  'connector_not_configured',
  'invalid_credentials',
  'permission_denied',
]);

type FailureKind = 'timeout' | 'abort' | 'unreached' | 'network';

/**
 * Walks an error, its `cause` chain and `AggregateError` members for a timeout, an abort, a network
 * failure before the request left (`unreached`) or one that may have come after it (`network`).
 */
function failureKind(error: unknown, depth = 0): FailureKind | undefined {
  if (depth > maxCauseDepth || error === null || typeof error !== 'object') return undefined;
  const { name, code, message, cause, errors } = error as Record<string, unknown>;
  if (name === 'TimeoutError') return 'timeout';
  if (name === 'AbortError') return 'abort';
  if (typeof code === 'string' && timeoutCodes.has(code)) return 'timeout';
  if (typeof code === 'string' && unreachedCodes.has(code)) return 'unreached';
  if (typeof code === 'string' && droppedCodes.has(code)) return 'network';
  const inner =
    failureKind(cause, depth + 1) ?? (Array.isArray(errors) ? failureKind(errors[0], depth + 1) : undefined);
  if (inner) return inner;
  // undici's `fetch failed` without a recognisable cause is still a transport failure.
  if (name === 'TypeError' && typeof message === 'string' && /^fetch failed$|network ?error/i.test(message)) {
    return 'network';
  }
  return undefined;
}

/** An HTTP view of a response-like object or an SDK error that carries a status (Octokit, axios-style). */
function httpView(value: object): HttpResponseLike | undefined {
  const record = value as Record<string, unknown>;
  const status = typeof record.status === 'number' ? record.status : record.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    return undefined;
  const response = (
    typeof record.response === 'object' && record.response !== null ? record.response : {}
  ) as Record<string, unknown>;
  const headers = (record.headers ?? response.headers) as HttpResponseLike['headers'];
  const body = record.body ?? response.data ?? response.body ?? record.data;
  return { status, headers, body };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Metadata the schema would accept: a plain object whose known fields have their types. */
function isPlainMeta(meta: unknown): meta is Record<string, unknown> {
  if (!isPlainObject(meta)) return false;
  const { correlation_id, tool, duration_ms, status_code } = meta;
  return (
    (correlation_id === undefined || typeof correlation_id === 'string') &&
    (tool === undefined || typeof tool === 'string') &&
    (duration_ms === undefined || (typeof duration_ms === 'number' && !Number.isNaN(duration_ms))) &&
    (status_code === undefined || Number.isInteger(status_code))
  );
}

/** A success envelope from a plain object with plain metadata: safe to copy without the schema. */
function isPlainSuccess(
  value: unknown,
): value is { ok: true; data?: unknown; meta?: Record<string, unknown> } {
  if (!isPlainObject(value) || value.ok !== true || !('data' in value)) return false;
  return value.meta === undefined || isPlainMeta(value.meta);
}

function classify(
  value: unknown,
  context: EnvelopeContext & { redact: Redactor },
  hasInput: boolean,
): Envelope {
  if (HttpError.isHttpError(value)) return fromHttp(value, context, value.missingScopes);
  if (typeof Response !== 'undefined' && value instanceof Response) {
    return fromHttp({ status: value.status, headers: value.headers }, context);
  }
  if (isPlainSuccess(value)) {
    // The common case, without a schema pass: only `ok`, `data` and `meta` are kept, as the schema
    // would. The meta is shared, not copied: `toEnvelope` copies it before adding to it, and
    // `finalizeEnvelope` builds the copy that leaves.
    const copy: Envelope = { ok: true, data: value.data };
    if (value.meta !== undefined) copy.meta = value.meta;
    return copy;
  }
  const common = { connector: context.connector };
  const parsed = envelopeSchema.safeParse(value);
  if (parsed.success) {
    // The parsed copy, not the value: unknown keys (a stack, a raw response) are dropped.
    const envelope = parsed.data as Envelope;
    if (envelope.ok) return envelope;
    const filled: ErrorEnvelope = { ...envelope };
    if (filled.connector === undefined && context.connector !== undefined)
      filled.connector = context.connector;
    if (
      filled.setup_url === undefined &&
      context.setupUrl !== undefined &&
      setupErrorTypes.has(filled.error_type)
    ) {
      filled.setup_url = context.setupUrl;
    }
    return filled;
  }
  if (isZodError(value)) return fromZod(value, context, hasInput);
  if (PatchbayError.isInstance(value) && isPatchbayErrorCode(value.code)) {
    // An error type passes through with the error's message, written for the user; any other code
    // maps to its type with that type's own sentence (its message is for developers and logs).
    const type = errorTypeOfCode(value.code);
    return failure(type, {
      ...common,
      setupUrl: context.setupUrl,
      userMessage: type === value.code ? value.message : undefined,
    });
  }
  if (value === null || typeof value !== 'object') return failure('internal_error', common);
  const kind = failureKind(value);
  if (kind === 'timeout') return failure('timeout', common);
  if (kind === 'abort') {
    // The caller's signal fired (a deadline aborts with a TimeoutError instead): the person stopped it.
    return failure('cancelled', {
      ...common,
      userMessage:
        context.harmlessToRepeat === false
          ? `The request was cancelled before it finished. ${mayHaveTakenEffect}`
          : 'The request was cancelled before it finished.',
    });
  }
  if (kind === 'unreached') return failure('network_error', common);
  if (kind === 'network') {
    // The request may have reached the service: repeating a write could repeat its effect.
    return context.harmlessToRepeat === false
      ? failure('network_error', {
          ...common,
          retryable: false,
          userMessage: `The connection to the service was lost during the request. ${mayHaveTakenEffect}`,
        })
      : failure('network_error', common);
  }
  const http = httpView(value);
  if (http) return fromHttp(http, context);
  if ((value as { ok?: unknown }).ok === false) {
    const body = value as Record<string, unknown>;
    const mapped = fromApiErrorBody(body, context);
    if (mapped) return mapped;
    // The service answered with an error code of its own: its failure, not ours (as for an HttpError).
    if (typeof body.error === 'string') {
      const { meta: _meta, ...envelope } = fromHttp({ status: 200, body }, context);
      return envelope;
    }
  }
  // Anything else: a generic message, no stack and no internals.
  return failure('internal_error', common);
}

const fallback = (): ErrorEnvelope => ({
  ok: false,
  error_type: 'internal_error',
  user_message:
    'This action failed because of an unexpected error, so it may not have been completed; try again, and report the problem if it keeps happening.',
  retryable: false,
});

/**
 * Maps anything — an envelope, a `Response`, an `HttpError`, a zod error, a network/abort/timeout
 * error, or an unknown value — to an envelope. Never throws. Every string in the result is
 * redacted of the context's secrets and of common token shapes.
 */
export function toEnvelope(value: unknown, context: EnvelopeContext = {}): Envelope {
  try {
    const redact = createRedactor(context.secrets ?? []);
    const safeContext: EnvelopeContext & { redact: Redactor } = {
      redact,
      connector: typeof context.connector === 'string' ? context.connector : undefined,
      setupUrl: typeof context.setupUrl === 'string' ? context.setupUrl : undefined,
      questions: context.questions,
      input: context.input,
      now: context.now,
      harmlessToRepeat: context.harmlessToRepeat,
    };
    let envelope: Envelope;
    try {
      envelope = classify(value, safeContext, 'input' in context);
    } catch {
      envelope = failure('internal_error', { connector: safeContext.connector });
    }
    // The context's tool and correlation id fill in only what the meta lacks; a meta that has both
    // (an MCP agent's answer) is left to `finalizeEnvelope`, which copies it anyway.
    const given = envelope.meta;
    const addTool = typeof context.tool === 'string' && given?.tool === undefined;
    const addCorrelationId = typeof context.correlationId === 'string' && given?.correlation_id === undefined;
    if (addTool || addCorrelationId) {
      const meta = { ...(given ?? {}) };
      if (addTool) meta.tool = context.tool;
      if (addCorrelationId) meta.correlation_id = context.correlationId;
      envelope = { ...envelope, meta };
    }
    return finalizeEnvelope(envelope, redact);
  } catch {
    return fallback();
  }
}

/** Redacts one string with the context's secrets; exported for log and error paths. */
export function redactWith(text: string, context: Pick<EnvelopeContext, 'secrets'> = {}): string {
  return redactString(text, context.secrets ?? []);
}
