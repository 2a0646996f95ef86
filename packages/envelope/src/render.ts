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

/** The state of one {@link stableJson} rendering. */
interface JsonWriter {
  out: string;
  /** The objects being written, outermost first: a value met again inside itself is circular. */
  readonly open: object[];
  readonly redact: Redactor;
  readonly maxStringLength: number | undefined;
}

function quoted(writer: JsonWriter, input: string): string {
  const redacted = writer.redact(input);
  const { maxStringLength } = writer;
  return JSON.stringify(
    maxStringLength === undefined || redacted.length <= maxStringLength
      ? redacted
      : `${redacted.slice(0, maxStringLength)}… [${redacted.length - maxStringLength} more characters]`,
  );
}

/**
 * An object's own enumerable keys in code-unit order, as `Array#sort` orders them. A short list is
 * sorted in place by insertion: `Array#sort` allocates its own work space on every call, and this
 * runs for every object of every result the gateway renders.
 */
function sortedKeys(object: object): string[] {
  const keys = Object.keys(object);
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index] as string;
    let at = index - 1;
    while (at >= 0 && (keys[at] as string) > key) {
      keys[at + 1] = keys[at] as string;
      at -= 1;
    }
    keys[at + 1] = key;
  }
  return keys;
}

/** Appends the JSON of a value; false when the value has none (undefined, a function, a symbol). */
function writeJson(writer: JsonWriter, current: unknown, depth: number): boolean {
  switch (typeof current) {
    case 'string':
      writer.out += quoted(writer, current);
      return true;
    case 'number':
      writer.out += Number.isFinite(current) ? String(current) : 'null';
      return true;
    case 'boolean':
      writer.out += current ? 'true' : 'false';
      return true;
    case 'bigint':
      writer.out += JSON.stringify(current.toString());
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (current === null) {
    writer.out += 'null';
    return true;
  }
  if (writer.open.includes(current)) {
    writer.out += '"[Circular]"';
    return true;
  }
  if (depth >= maxDepth) {
    writer.out += '"[Too deep]"';
    return true;
  }
  const start = writer.out.length;
  writer.open.push(current);
  try {
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return writeJson(writer, toJSON.call(current), depth + 1);
    if (Array.isArray(current)) {
      writer.out += '[';
      for (let index = 0; index < current.length; index += 1) {
        if (index > 0) writer.out += ',';
        if (!writeJson(writer, current[index], depth + 1)) writer.out += 'null';
      }
      writer.out += ']';
      return true;
    }
    writer.out += '{';
    let first = true;
    for (const key of sortedKeys(current)) {
      const before = writer.out.length;
      writer.out += first ? `${quoted(writer, key)}:` : `,${quoted(writer, key)}:`;
      // A key whose value has no JSON is left out, as JSON.stringify does.
      if (writeJson(writer, (current as Record<string, unknown>)[key], depth + 1)) first = false;
      else writer.out = writer.out.slice(0, before);
    }
    writer.out += '}';
    return true;
  } catch {
    writer.out = `${writer.out.slice(0, start)}"[Unreadable]"`;
    return true;
  } finally {
    writer.open.pop();
  }
}

/**
 * JSON with keys sorted at every level, so equal envelopes render byte-identically. Never throws.
 * Written into one string as it walks (no closures or part arrays per rendering: this runs on every
 * tool result the gateway relays).
 */
function stableJson(value: unknown, redact: Redactor, maxStringLength: number | undefined): string {
  const writer: JsonWriter = { out: '', open: [], redact, maxStringLength };
  return writeJson(writer, value, 0) ? writer.out : 'null';
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

// Built on the first truncation, not at import: constructing an Intl.NumberFormat costs ~13 ms of
// CPU (ICU's locale data), paid by every process that imports the envelope at start-up, and most
// processes never truncate a result.
let grouped: Intl.NumberFormat | undefined;
function groupDigits(value: number): string {
  grouped ??= new Intl.NumberFormat('en-US');
  return grouped.format(value);
}

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
  return `${text.slice(0, end)}… [result truncated: ${groupDigits(text.length)} characters, showing the first ${groupDigits(end)}]`;
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

const unexpectedFailure =
  'This action failed because of an unexpected error, so it may not have been completed; try again, and report the problem if it keeps happening.';

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
    case 'cancelled':
      // Not the service's fault: say who stopped it, so nobody retries a call the person called off.
      return 'The request was cancelled, so it was stopped.';
    case 'tool_unavailable':
      return 'This tool is not available right now.';
    case 'approval_required':
      return envelope.proposal_id
        ? `This action is waiting for approval (proposal ${envelope.proposal_id}).`
        : 'This action is waiting for approval.';
    case 'approval_denied':
      return 'This action was not approved, so it was not run.';
    case 'internal_error':
      return unexpectedFailure;
    default: {
      // Every error type has its own case: a new type that lacks one fails to compile here.
      const unhandled: never = envelope.error_type;
      void unhandled;
      return unexpectedFailure;
    }
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
    return unexpectedFailure;
  }
}
