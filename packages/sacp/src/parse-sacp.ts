import { jsonrepair } from 'jsonrepair';
import { compileDataSchema, type DataSchema } from './data-schema.js';
import { findJsonCandidates, type JsonCandidate } from './extract-json.js';
import { defaultMaxRawOutputChars, fallbackReply } from './fallback.js';
import type { SacpIssue } from './issues.js';
import { isSacpStatus, type SacpReply, type SacpStatus, sacpStatuses } from './reply.js';

/** A repair the parser applied on the way to a reply; reported so callers and audits can see how messy the output was. */
export type SacpRepair =
  | 'extracted_from_fence'
  | 'extracted_from_prose'
  | 'skipped_invalid_object'
  | 'jsonrepair'
  | 'decoded_string'
  | 'truncated_input'
  | 'unwrapped_reply'
  | 'renamed_keys'
  | 'coerced_status'
  | 'defaulted_thought'
  | 'coerced_thought'
  | 'defaulted_data'
  | 'wrapped_data'
  | 'moved_fields_to_data'
  | 'dropped_extra_fields'
  | 'defaulted_message'
  | 'coerced_message'
  | 'dropped_next_step_hint'
  | 'coerced_next_step_hint';

/** Options of `parseSacp`. */
export interface ParseSacpOptions {
  /** Per-agent schema of `data`, checked on `success` and `completed` replies; a violation gives `ok: false` with issues. */
  dataSchema?: DataSchema | undefined;
  /** Cap on the raw text kept in a fallback reply (default 8000 characters). */
  maxRawOutputChars?: number | undefined;
  /** Inputs longer than this are not scanned and become a fallback reply (default 5,000,000 characters). */
  maxInputChars?: number | undefined;
}

/** What `parseSacp` returns: always a valid reply, plus whether it can be trusted and how it was obtained. */
export interface ParseSacpResult {
  /** A schema-valid SACP reply: the model's own, or the `failure` fallback wrapping the raw text. */
  reply: SacpReply;
  /** True when the model's reply was read and its `data` matches the schema (when one is given). */
  ok: boolean;
  /** True when no reply could be read and `reply` is the fallback wrapper. */
  fallback: boolean;
  /** Repairs applied, in the order they happened. */
  repairs: SacpRepair[];
  /** Why `ok` is false: what was missing or invalid. */
  issues?: SacpIssue[];
}

const defaultMaxInputChars = 5_000_000;
const statusAliases: Record<string, SacpStatus> = {
  // `needs_input` is the name the protocol's first draft used for the same outcome.
  needs_input: 'clarification_needed',
  needs_clarification: 'clarification_needed',
};
const replyKeys = ['thought', 'status', 'data', 'message', 'next_step_hint'] as const;
type ReplyKey = (typeof replyKeys)[number];
const wrapperDepthLimit = 2;

/**
 * Reads an SACP reply out of raw model text. Never throws and never evaluates code: it takes a
 * fenced JSON block or the first balanced object that forms a reply, repairs common JSON defects
 * with `jsonrepair`, tolerates near-misses (status case, missing thought or data) and otherwise
 * returns a `failure` reply carrying the raw text in `data.raw_output`.
 */
export function parseSacp(text: unknown, options: ParseSacpOptions = {}): ParseSacpResult {
  const raw = typeof text === 'string' ? text : safeString(text);
  const maxRawOutputChars = options.maxRawOutputChars ?? defaultMaxRawOutputChars;
  try {
    return parseText(raw, options, maxRawOutputChars);
  } catch (error) {
    const reason = `the parser hit an unexpected error (${error instanceof Error ? error.message : 'unknown'})`;
    return fallbackResult(raw, reason, maxRawOutputChars, []);
  }
}

function parseText(raw: string, options: ParseSacpOptions, maxRawOutputChars: number): ParseSacpResult {
  if (raw.trim() === '') return fallbackResult(raw, 'the output was empty', maxRawOutputChars, []);
  if (raw.length > (options.maxInputChars ?? defaultMaxInputChars)) {
    return fallbackResult(raw, 'the output was too large to scan', maxRawOutputChars, []);
  }
  const decoded = decodeJsonString(raw);
  if (decoded !== undefined) {
    // The reply was JSON-encoded twice ("{\"thought\": ...}"): read the inner text instead.
    const inner = parseText(decoded, options, maxRawOutputChars);
    if (!inner.fallback) return { ...inner, repairs: ['decoded_string', ...inner.repairs] };
  }
  const candidates = findJsonCandidates(raw);
  if (candidates.length === 0) {
    return fallbackResult(raw, 'no JSON object was found in the output', maxRawOutputChars, [
      { path: '', message: 'no JSON object found' },
    ]);
  }
  let firstIssues: SacpIssue[] | undefined;
  let parsedCount = 0;
  for (const candidate of candidates) {
    const parsed = parseCandidate(candidate);
    if (!parsed) continue;
    parsedCount += 1;
    const normalized = normalizeReply(parsed.value);
    if (!normalized.reply) {
      firstIssues ??= normalized.issues;
      continue;
    }
    const repairs: SacpRepair[] = [];
    if (candidate.origin === 'fence') repairs.push('extracted_from_fence');
    if (candidate.origin === 'prose') repairs.push('extracted_from_prose');
    if (parsedCount > 1) repairs.push('skipped_invalid_object');
    repairs.push(...parsed.repairs, ...normalized.repairs);
    const reply = normalized.reply;
    // A failure or a question rarely carries the step's result, so only finished replies are held to the schema.
    if (options.dataSchema && (reply.status === 'success' || reply.status === 'completed')) {
      const issues = compileDataSchema(options.dataSchema).validate(reply.data);
      if (issues.length > 0) return { reply, ok: false, fallback: false, repairs, issues };
    }
    return { reply, ok: true, fallback: false, repairs };
  }
  if (firstIssues) {
    const summary = firstIssues.map((issue) => `${issue.path || 'reply'} ${issue.message}`).join('; ');
    return fallbackResult(
      raw,
      `the JSON found is not a valid reply (${summary})`,
      maxRawOutputChars,
      firstIssues,
    );
  }
  return fallbackResult(raw, 'the JSON found could not be parsed or repaired', maxRawOutputChars, [
    { path: '', message: 'invalid JSON that could not be repaired' },
  ]);
}

function decodeJsonString(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (trimmed.length < 2 || !trimmed.startsWith('"') || !trimmed.endsWith('"')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'string' && value.trim().startsWith('{') ? value : undefined;
  } catch {
    return undefined;
  }
}

function fallbackResult(
  raw: string,
  reason: string,
  maxRawOutputChars: number,
  issues: SacpIssue[],
): ParseSacpResult {
  return {
    reply: fallbackReply(raw, reason, maxRawOutputChars),
    ok: false,
    fallback: true,
    repairs: [],
    issues: issues.length > 0 ? issues : [{ path: '', message: reason }],
  };
}

function parseCandidate(candidate: JsonCandidate): { value: unknown; repairs: SacpRepair[] } | undefined {
  if (!candidate.truncated) {
    try {
      return { value: JSON.parse(candidate.text), repairs: [] };
    } catch {
      // Fall through to repair.
    }
  }
  try {
    const value: unknown = JSON.parse(jsonrepair(candidate.text));
    return { value, repairs: candidate.truncated ? ['jsonrepair', 'truncated_input'] : ['jsonrepair'] };
  } catch {
    return undefined;
  }
}

interface Normalized {
  reply?: SacpReply;
  repairs: SacpRepair[];
  issues: SacpIssue[];
}

function normalizeReply(value: unknown, depth = 0): Normalized {
  if (!isPlainObject(value)) {
    return { repairs: [], issues: [{ path: '', message: 'is not a JSON object' }] };
  }
  const repairs: SacpRepair[] = [];
  const { fields, extras, renamed } = canonicalKeys(value);
  if (renamed) repairs.push('renamed_keys');

  if (!('status' in fields)) {
    // Some models wrap the reply: {"response": {...}}. Unwrap a lone object that itself looks like a reply.
    const entries = Object.entries(value);
    const inner = entries[0]?.[1];
    if (entries.length === 1 && depth < wrapperDepthLimit && isPlainObject(inner)) {
      const unwrapped = normalizeReply(inner, depth + 1);
      if (unwrapped.reply) return { ...unwrapped, repairs: ['unwrapped_reply', ...unwrapped.repairs] };
    }
    return { repairs, issues: [{ path: 'status', message: 'is missing' }] };
  }

  const status = normalizeStatus(fields.status);
  if (!status) {
    return {
      repairs,
      issues: [
        {
          path: 'status',
          message: `must be one of ${sacpStatuses.join(', ')} (got ${describe(fields.status)})`,
        },
      ],
    };
  }
  if (status !== fields.status) repairs.push('coerced_status');

  let thought = '';
  if (fields.thought === undefined || fields.thought === null) repairs.push('defaulted_thought');
  else if (typeof fields.thought === 'string') thought = fields.thought;
  else {
    thought = Array.isArray(fields.thought)
      ? fields.thought.map(safeString).join('\n')
      : safeString(fields.thought);
    repairs.push('coerced_thought');
  }

  let data: Record<string, unknown>;
  const extraKeys = Object.keys(extras);
  if (fields.data === undefined || fields.data === null) {
    data = {};
    if (extraKeys.length > 0) {
      // Without a data object, stray top-level fields are most likely the data the model meant.
      Object.assign(data, extras);
      repairs.push('moved_fields_to_data');
    } else repairs.push('defaulted_data');
  } else if (isPlainObject(fields.data)) {
    data = withoutProtoKey(fields.data);
  } else {
    data = { value: fields.data };
    repairs.push('wrapped_data');
  }
  if (extraKeys.length > 0 && !repairs.includes('moved_fields_to_data')) repairs.push('dropped_extra_fields');

  let message = '';
  if (fields.message === undefined || fields.message === null) repairs.push('defaulted_message');
  else if (typeof fields.message === 'string') message = fields.message;
  else {
    message = safeString(fields.message);
    repairs.push('coerced_message');
  }

  const reply: SacpReply = { thought, status, data, message };
  if (fields.next_step_hint === null) repairs.push('dropped_next_step_hint');
  else if (typeof fields.next_step_hint === 'string') reply.next_step_hint = fields.next_step_hint;
  else if (fields.next_step_hint !== undefined) {
    reply.next_step_hint = safeString(fields.next_step_hint);
    repairs.push('coerced_next_step_hint');
  }
  return { reply, repairs, issues: [] };
}

/**
 * The data without an own `__proto__` key, as the reply schema reads it: JSON.parse keeps that key
 * as data, and a consumer that copies the data with `Object.assign` would swap its target's
 * prototype for the model's value.
 */
function withoutProtoKey(data: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(data, '__proto__')) return data;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(data)) if (key !== '__proto__') copy[key] = data[key];
  return copy;
}

function canonicalKeys(value: Record<string, unknown>): {
  fields: Partial<Record<ReplyKey, unknown>>;
  extras: Record<string, unknown>;
  renamed: boolean;
} {
  const fields: Partial<Record<ReplyKey, unknown>> = {};
  const extras: Record<string, unknown> = {};
  let renamed = false;
  // Exact keys win over look-alikes such as "Status" or "nextStepHint".
  for (const [key, inner] of Object.entries(value)) {
    if ((replyKeys as readonly string[]).includes(key)) fields[key as ReplyKey] = inner;
  }
  for (const [key, inner] of Object.entries(value)) {
    if ((replyKeys as readonly string[]).includes(key)) continue;
    const canonical = canonicalKey(key);
    if (canonical && !(canonical in fields)) {
      fields[canonical] = inner;
      renamed = true;
    } else extras[key] = inner;
  }
  return { fields, extras, renamed };
}

function canonicalKey(key: string): ReplyKey | undefined {
  const snake = key
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toLowerCase();
  return (replyKeys as readonly string[]).includes(snake) ? (snake as ReplyKey) : undefined;
}

function normalizeStatus(value: unknown): SacpStatus | undefined {
  if (isSacpStatus(value)) return value;
  if (typeof value !== 'string') return undefined;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (isSacpStatus(key)) return key;
  return statusAliases[key];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  const text = safeString(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function safeString(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      // A revoked or throwing proxy refuses even Object.prototype.toString.
      return '[unreadable value]';
    }
  }
}
