/** Replacement text for a removed secret. */
export const REDACTED = '[REDACTED]';

/** Removes secrets from one string. */
export type Redactor = (text: string) => string;

// Secrets shorter than this are not searched for: they would match ordinary text.
const minSecretLength = 4;
const maxDepth = 64;

// `(?<![A-Za-z0-9])` rather than `\b`: a token glued to `_`, `=` or `:` must still be found, and no
// trailing `\b`, which would make a token followed by `_` match nothing at all.
const tokenPatterns: RegExp[] = [
  /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub classic tokens
  /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g, // GitHub fine-grained tokens
  /(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{8,}/g, // Slack tokens
  /(?<![A-Za-z0-9])xapp-[A-Za-z0-9-]{8,}/g, // Slack app-level tokens
  /(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{16,}/g, // Anthropic keys
  /(?<![A-Za-z0-9])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, // OpenAI keys
  /(?<![A-Za-z0-9])re_(?=[A-Za-z0-9_]*\d)[A-Za-z0-9_]{16,}/g, // Resend keys (a digit keeps prose out)
  /(?<![A-Za-z0-9])lin_(?:api|oauth)_[A-Za-z0-9]{16,}/g, // Linear keys
  /(?<![A-Za-z0-9])(?:secret|ntn)_(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{20,}/g, // Notion integration tokens
  /(?<![A-Za-z0-9])AKIA[0-9A-Z]{16}/g, // AWS access key ids
  /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, // JWTs (unsigned ones too)
];

// Credential-carrying labels: the label stays so the text still reads, the value goes.
const labelledPatterns: RegExp[] = [
  // Header lines: `Authorization: Bearer x`, `x-api-key: x`, `Cookie: a=b`.
  /\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|private-token|cookie|set-cookie)(["']?\s*[:=]\s*["']?)((?:bearer|basic|bot|token)\s+)?[^\s"',;]+/gi,
  // Query parameters: `?access_token=x&`.
  /([?&;](?:access_token|refresh_token|id_token|api_key|apikey|key|token|client_secret|password|secret|sig|signature|auth)=)()()[^&#\s"'<>]+/gi,
  // Quoted JSON or config values: `"password": "x"`.
  /(["']?(?:access_token|refresh_token|id_token|api_key|apikey|client_secret|password|passwd|secret|token|auth_token)["']?)(\s*[:=]\s*["'])()[^"'\n]+/gi,
];

// Authorization schemes in free text. `Bearer` is rare in prose; the others need a digit or `=`.
const schemePatterns: RegExp[] = [
  /(?<![A-Za-z0-9])(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(Basic|Bot|Token)\s+(?=[A-Za-z0-9._~+/-]*[0-9=])[A-Za-z0-9._~+/=-]{8,}/gi,
];

// One case-insensitive pass that every shape above would also match: text it does not match holds
// none of them, so the sixteen separate passes are skipped for ordinary strings (most of them).
const anyShapeHint = new RegExp(
  [...tokenPatterns, ...labelledPatterns, ...schemePatterns].map((pattern) => pattern.source).join('|'),
  'i',
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function caseInsensitiveHex(byte: number): string {
  return [...byte.toString(16).toUpperCase().padStart(2, '0')]
    .map((digit) => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit))
    .join('');
}

/** Matches the secret literally or with any of its non-alphanumeric characters percent-encoded. */
function urlTolerantSource(secret: string): string {
  const encoder = new TextEncoder();
  let source = '';
  for (const character of secret) {
    if (/[A-Za-z0-9]/.test(character)) {
      source += character;
      continue;
    }
    const encoded = [...encoder.encode(character)].map((byte) => `%${caseInsensitiveHex(byte)}`).join('');
    const alternatives = [escapeRegExp(character), encoded];
    if (character === ' ') alternatives.push('\\+');
    source += `(?:${alternatives.join('|')})`;
  }
  return source;
}

/**
 * The base64 characters fixed by the secret alone, for each of the three byte alignments it can
 * have inside a longer encoded text, in the standard and the URL-safe alphabet.
 */
function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset += 1) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = Buffer.from(padded).toString('base64').replace(/=+$/, '');
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= minSecretLength + 2) {
      cores.add(core);
      cores.add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...cores];
}

/**
 * Builds a redactor for a set of credential values: each value is removed as written,
 * percent-encoded (either hex case, `+` for space) and base64-encoded at any alignment, and
 * common token shapes (GitHub, Slack, OpenAI, Anthropic, JWT, `Bearer` and header values) are
 * removed whatever the secrets. Build it once and reuse it for many strings.
 */
export function createRedactor(secrets: Iterable<string> = []): Redactor {
  // Most calls carry no credentials (functions, MCP tools): skip collecting and keying entirely.
  if (Array.isArray(secrets) && secrets.length === 0) return shapesOnlyRedactor();
  const values = collectSecrets(secrets);
  // Building the secret pattern costs more than applying it; the same credentials recur on every call.
  const key = [...values].join('\u0000');
  const cached = redactorCache.get(key);
  if (cached) {
    redactorCache.delete(key);
    redactorCache.set(key, cached);
    return cached;
  }
  const redactor = buildRedactor(values);
  redactorCache.set(key, redactor);
  if (redactorCache.size > maxCachedRedactors) redactorCache.delete(redactorCache.keys().next().value!);
  return redactor;
}

// Recently used redactors by their secret set (least recently used evicted first). Held in process
// memory only, like the credentials they were built from.
const maxCachedRedactors = 64;
const redactorCache = new Map<string, Redactor>();
let shapesOnly: Redactor | undefined;
const shapesOnlyRedactor = (): Redactor => {
  shapesOnly ??= buildRedactor(new Set());
  return shapesOnly;
};

function collectSecrets(secrets: Iterable<string>): Set<string> {
  const values = new Set<string>();
  try {
    for (const secret of secrets) {
      if (typeof secret !== 'string') continue;
      for (const form of [secret, secret.trim()]) if (form.length >= minSecretLength) values.add(form);
    }
  } catch {
    // A broken iterable yields what it yielded before failing; the token shapes still apply.
  }
  return values;
}

// Short strings found free of every shape, remembered so the same text is not scanned again: the keys
// of results (every item of a list has the same ones), tool names and envelope fields recur on every
// call, and the one-pass scan is the dearest step of redacting them. Only text the shape scan passed
// after the caller's own secrets were removed is kept, so nothing held here is a known credential or
// token-shaped; short and bounded (cleared when full), so unique values only cost a slot each.
const maxRememberedLength = 32;
const maxRemembered = 1024;
const shapeFree = new Set<string>();

function scanShapes(text: string): boolean {
  if (text.length <= maxRememberedLength) {
    if (shapeFree.has(text)) return false;
    if (anyShapeHint.test(text)) return true;
    if (shapeFree.size >= maxRemembered) shapeFree.clear();
    shapeFree.add(text);
    return false;
  }
  return anyShapeHint.test(text);
}

function buildRedactor(values: Set<string>): Redactor {
  // Longest first, because the regex alternation takes the first alternative that matches.
  const sources = [...values]
    .sort((a, b) => b.length - a.length)
    .flatMap((secret) => [urlTolerantSource(secret), ...base64Cores(secret).map(escapeRegExp)]);
  const secretPattern = sources.length > 0 ? new RegExp(sources.join('|'), 'g') : undefined;
  return (text: string): string => {
    if (typeof text !== 'string') return text;
    let result = secretPattern ? text.replace(secretPattern, REDACTED) : text;
    if (!scanShapes(result)) return result;
    for (const pattern of tokenPatterns) result = result.replace(pattern, REDACTED);
    for (const pattern of labelledPatterns) {
      result = result.replace(
        pattern,
        (_match, label: string, separator: string, scheme: string | undefined) =>
          `${label}${separator}${scheme ?? ''}${REDACTED}`,
      );
    }
    for (const pattern of schemePatterns) {
      result = result.replace(pattern, (_match, scheme: string) => `${scheme} ${REDACTED}`);
    }
    return result;
  };
}

/**
 * Removes secrets from a string: every given credential value (also URL-encoded and base64) and
 * common token shapes. Pure; never throws.
 */
export function redactString(text: string, secrets: Iterable<string> = []): string {
  return createRedactor(secrets)(text);
}

/**
 * A JSON-like deep copy of `value` with every string, keys included, redacted. Never throws:
 * cycles become `[Circular]`, unreadable parts (throwing getters, hostile proxies) `[Unreadable]`,
 * objects with `toJSON` (dates) are copied as they would serialise.
 */
export function redactValue<T>(value: T, secrets: Iterable<string> | Redactor = []): T {
  const redact = typeof secrets === 'function' ? secrets : createRedactor(secrets);
  // A string or other primitive (a tool's text result, most often) needs no walk.
  if (typeof value === 'string') return redact(value) as T;
  if (value === null || typeof value !== 'object') return value;
  const ancestors = new Set<object>();
  const walk = (current: unknown, depth: number): unknown => {
    if (typeof current === 'string') return redact(current);
    if (current === null || typeof current !== 'object') return current;
    if (ancestors.has(current)) return '[Circular]';
    if (depth >= maxDepth) return '[Too deep]';
    ancestors.add(current);
    try {
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return walk(toJSON.call(current), depth + 1);
      if (Array.isArray(current)) {
        const copy: unknown[] = [];
        for (let index = 0; index < current.length; index += 1) copy.push(walk(current[index], depth + 1));
        return copy;
      }
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(current)) {
        const safeKey = redact(key);
        const inner = walk((current as Record<string, unknown>)[key], depth + 1);
        // defineProperty so a `__proto__` key stays data instead of changing the copy's prototype.
        if (safeKey === '__proto__') {
          Object.defineProperty(copy, safeKey, {
            value: inner,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          copy[safeKey] = inner;
        }
      }
      return copy;
    } catch {
      return '[Unreadable]';
    } finally {
      ancestors.delete(current);
    }
  };
  return walk(value, 0) as T;
}
