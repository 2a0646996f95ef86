/** Replacement text for a removed secret. */
export const REDACTED = '[REDACTED]';

// Common token shapes. Kept conservative enough not to eat ordinary words.
const tokenPatterns: RegExp[] = [
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g, // GitHub classic tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, // GitHub fine-grained tokens
  /\bxox[abposre]-[A-Za-z0-9-]{8,}\b/g, // Slack tokens
  /\bxapp-[A-Za-z0-9-]{8,}\b/g, // Slack app-level tokens
  /\bsk-ant-[A-Za-z0-9_-]{16,}\b/g, // Anthropic keys
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b/g, // OpenAI keys
  /\bre_[A-Za-z0-9_]{16,}\b/g, // Resend keys
  /\blin_(?:api|oauth)_[A-Za-z0-9]{16,}\b/g, // Linear keys
  /\b(?:secret|ntn)_[A-Za-z0-9]{20,}\b/g, // Notion integration tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, // JWTs
  /\b(Bearer|Basic|Bot|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, // Authorization header values
];

/**
 * Removes secrets from a string: every given credential value (exact occurrences, also in
 * URL-encoded and base64 form) and common token shapes. Pure; never throws.
 */
export function redactString(text: string, secrets: Iterable<string> = []): string {
  let result = text;
  const values = [...secrets].filter((secret) => typeof secret === 'string' && secret.length >= 4);
  // Longest first so a secret that contains another is removed whole.
  values.sort((a, b) => b.length - a.length);
  for (const secret of values) {
    for (const form of new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])) {
      if (form.length >= 4) result = result.split(form).join(REDACTED);
    }
  }
  for (const pattern of tokenPatterns) {
    result = result.replace(pattern, (match, scheme: string | undefined) =>
      scheme && /^(bearer|basic|bot|token)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED,
    );
  }
  return result;
}

/**
 * Deep-copies a JSON-like value with every string (keys included) redacted. Cycles and
 * non-plain objects are handled without throwing.
 */
export function redactValue<T>(value: T, secrets: Iterable<string> = [], seen = new WeakSet<object>()): T {
  const list = [...secrets];
  const walk = (current: unknown): unknown => {
    if (typeof current === 'string') return redactString(current, list);
    if (current === null || typeof current !== 'object') return current;
    if (seen.has(current)) return '[Circular]';
    seen.add(current);
    if (Array.isArray(current)) return current.map(walk);
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(current)) copy[redactString(key, list)] = walk(inner);
    return copy;
  };
  return walk(value) as T;
}
