import { errorDefaults } from './constructors.js';
import type { ArgumentIssue, Envelope, EnvelopeMeta, ErrorEnvelope, MissingField } from './envelope.js';
import { type ErrorType, errorTypes } from './error-types.js';
import { type Redactor, redactValue } from './redact.js';

function isErrorType(value: unknown): value is ErrorType {
  return typeof value === 'string' && (errorTypes as readonly string[]).includes(value);
}

function redactedString(value: unknown, redact: Redactor): string | undefined {
  return typeof value === 'string' ? redact(value) : undefined;
}

/** Keys of `meta` the schema types itself; every other key is free-form. */
function isKnownMetaKey(key: string): boolean {
  return key === 'correlation_id' || key === 'tool' || key === 'duration_ms' || key === 'status_code';
}

/** Whether `meta` has a key of its own besides the known ones (no array or object built for it). */
function hasExtraKeys(meta: object): boolean {
  for (const key in meta) if (Object.hasOwn(meta, key) && !isKnownMetaKey(key)) return true;
  return false;
}

function finalizeMeta(meta: unknown, redact: Redactor): EnvelopeMeta | undefined {
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  const { correlation_id, tool, duration_ms, status_code } = meta as Record<string, unknown>;
  let copy: EnvelopeMeta = {};
  let empty = true;
  // Extra keys are free-form (the schema passes them through): keys and values are redacted alike.
  // Usually there are none, and then nothing is walked or copied for them.
  if (hasExtraKeys(meta)) {
    const {
      correlation_id: _c,
      tool: _t,
      duration_ms: _d,
      status_code: _s,
      ...rest
    } = meta as Record<string, unknown>;
    copy = { ...(redactValue(rest, redact) as Record<string, unknown>) };
    empty = Object.keys(copy).length === 0;
  }
  const correlationId = redactedString(correlation_id, redact);
  if (correlationId !== undefined) {
    copy.correlation_id = correlationId;
    empty = false;
  }
  const toolName = redactedString(tool, redact);
  if (toolName !== undefined) {
    copy.tool = toolName;
    empty = false;
  }
  if (typeof duration_ms === 'number' && Number.isFinite(duration_ms)) {
    copy.duration_ms = duration_ms;
    empty = false;
  }
  if (Number.isSafeInteger(status_code)) {
    copy.status_code = status_code as number;
    empty = false;
  }
  return empty ? undefined : copy;
}

function finalizeMissing(missing: unknown, redact: Redactor): MissingField[] {
  if (!Array.isArray(missing)) return [];
  return missing.flatMap((field: unknown) => {
    if (field === null || typeof field !== 'object') return [];
    const { field: name, question } = field as Record<string, unknown>;
    return typeof name === 'string' && typeof question === 'string'
      ? [{ field: redact(name), question: redact(question) }]
      : [];
  });
}

function finalizeIssues(issues: unknown, redact: Redactor): ArgumentIssue[] {
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((issue: unknown) => {
    if (issue === null || typeof issue !== 'object') return [];
    const { path, message } = issue as Record<string, unknown>;
    return typeof path === 'string' && typeof message === 'string'
      ? [{ path: redact(path), message: redact(message) }]
      : [];
  });
}

function finalizeError(envelope: ErrorEnvelope, redact: Redactor): ErrorEnvelope {
  const type = isErrorType(envelope.error_type) ? envelope.error_type : 'internal_error';
  const defaults = errorDefaults(type);
  const result: ErrorEnvelope = {
    ok: false,
    error_type: type,
    user_message: redactedString(envelope.user_message, redact) ?? defaults.message,
    retryable: typeof envelope.retryable === 'boolean' ? envelope.retryable : defaults.retryable,
  };
  const connector = redactedString(envelope.connector, redact);
  if (connector !== undefined) result.connector = connector;
  const setupUrl = redactedString(envelope.setup_url, redact);
  if (setupUrl !== undefined) result.setup_url = setupUrl;
  const retryAfter = envelope.retry_after_s;
  if (typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0) {
    result.retry_after_s = retryAfter;
  }
  const missing = finalizeMissing(envelope.missing, redact);
  if (missing.length > 0) result.missing = missing;
  const scopes = Array.isArray(envelope.missing_scopes)
    ? envelope.missing_scopes.filter((scope) => typeof scope === 'string').map((scope) => redact(scope))
    : [];
  if (scopes.length > 0) result.missing_scopes = scopes;
  const issues = finalizeIssues(envelope.issues, redact);
  if (issues.length > 0) result.issues = issues;
  const proposalId = redactedString(envelope.proposal_id, redact);
  if (proposalId !== undefined) result.proposal_id = proposalId;
  const meta = finalizeMeta(envelope.meta, redact);
  if (meta !== undefined) result.meta = meta;
  return result;
}

/**
 * The envelope as it leaves `toEnvelope`: a fresh copy holding only the schema's fields, each of its
 * type, with every free-text value redacted. Field names and the `error_type` value are the wire
 * shape and are never passed through the redactor: a short secret that happens to be part of
 * `invalid_arguments` or `user_message` must not turn the envelope into something no reader accepts.
 */
export function finalizeEnvelope(envelope: Envelope, redact: Redactor): Envelope {
  if (envelope.ok === true) {
    const result: Envelope = { ok: true, data: redactValue(envelope.data, redact) };
    const meta = finalizeMeta(envelope.meta, redact);
    if (meta !== undefined) result.meta = meta;
    return result;
  }
  return finalizeError(envelope, redact);
}
