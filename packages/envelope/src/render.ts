import type { Envelope, ErrorEnvelope } from './envelope.js';
import { createRedactor, type Redactor } from './redact.js';

/** Options of {@link renderEnvelopeForModel}. */
export interface ModelRenderOptions {
  /** Longer string values are cut to this many characters and marked as cut. */
  maxStringLength?: number;
  /** Credential values to remove, for envelopes that did not come through `toEnvelope`. */
  secrets?: Iterable<string>;
  /**
   * Longest text returned, in characters: a longer rendering is cut there and ends with a note of
   * its full size (see {@link truncateForModel}); the cut text is no longer JSON.
   */
  maxLength?: number;
}

/** Options of {@link renderEnvelopeForUser}. */
export interface UserRenderOptions {
  /** Display name of the connector ("GitHub"); the envelope carries only its id. */
  connectorName?: string;
  /** Credential values to remove, for envelopes that did not come through `toEnvelope`. */
  secrets?: Iterable<string>;
}

const maxDepth = 64;

/** JSON with keys sorted at every level, so equal envelopes render byte-identically. Never throws. */
function stableJson(value: unknown, redact: Redactor, maxStringLength: number | undefined): string {
  const ancestors = new Set<object>();
  const text = (input: string): string => {
    const redacted = redact(input);
    if (maxStringLength === undefined || redacted.length <= maxStringLength) return redacted;
    return `${redacted.slice(0, maxStringLength)}… [${redacted.length - maxStringLength} more characters]`;
  };
  const walk = (current: unknown, depth: number): string | undefined => {
    if (current === null) return 'null';
    if (typeof current === 'string') return JSON.stringify(text(current));
    if (typeof current === 'number') return Number.isFinite(current) ? String(current) : 'null';
    if (typeof current === 'boolean') return String(current);
    if (typeof current === 'bigint') return JSON.stringify(current.toString());
    if (typeof current !== 'object') return undefined;
    if (ancestors.has(current)) return JSON.stringify('[Circular]');
    if (depth >= maxDepth) return JSON.stringify('[Too deep]');
    ancestors.add(current);
    try {
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return walk(toJSON.call(current), depth + 1);
      if (Array.isArray(current)) {
        const items: string[] = [];
        for (let index = 0; index < current.length; index += 1)
          items.push(walk(current[index], depth + 1) ?? 'null');
        return `[${items.join(',')}]`;
      }
      const entries: string[] = [];
      for (const key of Object.keys(current).sort()) {
        const rendered = walk((current as Record<string, unknown>)[key], depth + 1);
        if (rendered !== undefined) entries.push(`${JSON.stringify(text(key))}:${rendered}`);
      }
      return `{${entries.join(',')}}`;
    } catch {
      return JSON.stringify('[Unreadable]');
    } finally {
      ancestors.delete(current);
    }
  };
  return walk(value, 0) ?? 'null';
}

/**
 * Compact text of an envelope for the model: one line of JSON with sorted keys and without
 * `meta` (correlation ids and timings would only cost tokens and break prompt caching).
 */
export function renderEnvelopeForModel(envelope: Envelope, options: ModelRenderOptions = {}): string {
  let text: string;
  try {
    const { meta: _meta, ...rest } = envelope;
    text = stableJson(rest, createRedactor(options.secrets ?? []), options.maxStringLength);
  } catch {
    return '{"error_type":"internal_error","ok":false,"retryable":false}';
  }
  return options.maxLength === undefined ? text : truncateForModel(text, options.maxLength);
}

const grouped = new Intl.NumberFormat('en-US');

/**
 * Text at most `maxLength` characters long plus, when it had to be cut, a note the model can read:
 * `… [result truncated: 5,242,880 characters, showing the first 20,000]`. A cut never splits a
 * UTF-16 surrogate pair.
 */
export function truncateForModel(text: string, maxLength: number): string {
  const limit = Math.max(0, Math.floor(maxLength));
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [result truncated: ${grouped.format(text.length)} characters, showing the first ${grouped.format(end)}]`;
}

/** "30 seconds", "1 minute", "2 hours": a wait a person reads at a glance. */
export function formatWait(seconds: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.max(0, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), 'minute');
  return plural(Math.ceil(seconds / 3600), 'hour');
}

function isWebUrl(value: string | undefined): value is string {
  return typeof value === 'string' && /^https?:\/\/\S+$/i.test(value);
}

function sentenceFor(envelope: ErrorEnvelope, name: string | undefined): string {
  const service = name ?? 'The service';
  const connection = name ? `The ${name} connection` : 'The connection';
  const url = isWebUrl(envelope.setup_url) ? envelope.setup_url : undefined;
  const scopes = envelope.missing_scopes?.length ? envelope.missing_scopes.join(', ') : undefined;
  switch (envelope.error_type) {
    case 'connector_not_configured':
      if (url) return `Connect ${name ?? 'the service'} at ${url} to do this.`;
      return `${service} is not connected yet; connect it to do this.`;
    case 'invalid_credentials':
      return `${connection} is no longer valid; reconnect it${url ? ` at ${url}` : ''} and try again.`;
    case 'rate_limited':
      return envelope.retry_after_s !== undefined
        ? `${service} is rate limiting requests; try again in ${formatWait(envelope.retry_after_s)}.`
        : `${service} is rate limiting requests; try again later.`;
    case 'permission_denied':
      return scopes
        ? `${connection} is missing the permission${envelope.missing_scopes!.length > 1 ? 's' : ''} ${scopes}; reconnect it${url ? ` at ${url}` : ''} and grant ${envelope.missing_scopes!.length > 1 ? 'them' : 'it'}.`
        : `${connection} does not have permission to do this.`;
    case 'disabled_by_admin':
      // Say nothing about which integration: disabled connectors are not to be offered or named.
      return 'This action is not available.';
    case 'needs_input':
      return envelope.missing?.length
        ? envelope.missing.map((field) => field.question).join(' ')
        : 'Some information is needed before this can run.';
    case 'invalid_arguments':
      return 'The request had details that were not valid, so it was not run.';
    case 'not_found':
      return `${service} could not find the requested item.`;
    case 'conflict':
      return `${service} refused the change because it conflicts with the item's current state.`;
    case 'upstream_error':
      return envelope.retryable
        ? `${service} had a problem on its side; try again in a moment.`
        : `${service} refused the request.`;
    case 'network_error':
      return `${service} could not be reached; try again in a moment.`;
    case 'timeout':
      return `${service} took too long to answer, so the request was stopped.`;
    case 'tool_unavailable':
      return 'This tool is not available right now.';
    case 'approval_required':
      return envelope.proposal_id
        ? `This action is waiting for approval (proposal ${envelope.proposal_id}).`
        : 'This action is waiting for approval.';
    case 'approval_denied':
      return 'This action was not approved, so it was not run.';
    default:
      return 'This action failed because of an unexpected error, so it may not have been completed; try again, and report the problem if it keeps happening.';
  }
}

/**
 * One or two plain sentences a person can read ("Slack is rate limiting requests; try again in
 * 30 seconds."). Built from the envelope's type and fields, not its free text, so no service
 * detail, stack or secret can reach the person through it.
 */
export function renderEnvelopeForUser(envelope: Envelope, options: UserRenderOptions = {}): string {
  try {
    if (envelope.ok) return 'Done.';
    const name =
      options.connectorName?.trim() ||
      (typeof envelope.connector === 'string' ? envelope.connector : '') ||
      undefined;
    return createRedactor(options.secrets ?? [])(sentenceFor(envelope, name));
  } catch {
    return 'This action failed because of an unexpected error, so it may not have been completed; try again, and report the problem if it keeps happening.';
  }
}
