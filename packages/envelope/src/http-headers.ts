import type { HttpResponseLike } from './http-error.js';
import type { Redactor } from './redact.js';

/** Reads one header case-insensitively from `Headers`, a `Map`-like or a plain record. */
export function readHeader(headers: unknown, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const lower = name.toLowerCase();
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === 'function') {
    const value: unknown = getter.call(headers, lower);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  }
  const record = headers as Record<string, unknown>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower);
  const value = key === undefined ? undefined : record[key];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' || typeof first === 'number' ? String(first) : undefined;
}

function secondsUntil(epochMilliseconds: number, now: Date): number {
  return Math.max(0, Math.ceil((epochMilliseconds - now.getTime()) / 1000));
}

/**
 * Seconds to wait, from `Retry-After` (delta seconds or HTTP date) or a rate-limit reset header
 * (`x-ratelimit-reset` as GitHub's epoch seconds, epoch milliseconds, or an IETF delta).
 */
export function retryAfterSeconds(
  headers: HttpResponseLike['headers'],
  now: Date = new Date(),
): number | undefined {
  const retryAfter = readHeader(headers, 'retry-after')?.trim();
  if (retryAfter) {
    if (/^-?\d+(\.\d+)?$/.test(retryAfter)) return Math.max(0, Math.ceil(Number(retryAfter)));
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return secondsUntil(date, now);
  }
  const reset = (
    readHeader(headers, 'x-ratelimit-reset') ??
    readHeader(headers, 'ratelimit-reset') ??
    readHeader(headers, 'x-rate-limit-reset')
  )?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const value = Number(reset);
    if (value > 1e12) return secondsUntil(value, now);
    if (value > 1e9) return secondsUntil(value * 1000, now);
    return Math.ceil(value);
  }
  return undefined;
}

function splitScopes(value: unknown, redact: Redactor): string[] {
  if (typeof value !== 'string') return [];
  return redact(value)
    .split(/[\s,]+/)
    .map((scope) => scope.trim())
    .filter(Boolean);
}

/**
 * Scopes a refusal says are missing: an explicit list, GitHub's `x-accepted-oauth-scopes` minus
 * the granted `x-oauth-scopes`, or a Slack-style body `needed`.
 */
export function missingScopesOf(
  response: HttpResponseLike,
  explicit?: string[],
  redact: Redactor = (text) => text,
): string[] | undefined {
  if (Array.isArray(explicit) && explicit.length > 0)
    return explicit.filter((scope) => typeof scope === 'string');
  const accepted = splitScopes(readHeader(response.headers, 'x-accepted-oauth-scopes'), redact);
  if (accepted.length > 0) {
    const granted = new Set(splitScopes(readHeader(response.headers, 'x-oauth-scopes'), redact));
    const missing = accepted.filter((scope) => !granted.has(scope));
    if (missing.length > 0) return missing;
  }
  const body = response.body;
  if (body !== null && typeof body === 'object') {
    const needed = splitScopes((body as { needed?: unknown }).needed, redact);
    if (needed.length > 0) return needed;
  }
  return undefined;
}
