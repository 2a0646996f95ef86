import type { Credentials } from '@patchbay/connector';

/**
 * The credential values to scrub from results: those of the secret fields when the names are known,
 * else every value (the safe default for tools outside a connector).
 */
export function secretCredentialValues(
  credentials: Credentials | undefined,
  secretFields?: readonly string[],
): string[] {
  if (!credentials) return [];
  const values =
    secretFields === undefined ? Object.values(credentials) : secretFields.map((name) => credentials[name]);
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}

// Values shorter than this would match ordinary names ("ab" in "Gabriel"); tokens are far longer.
const minCredentialLength = 4;
// A run of this many characters of a credential counts as leaking it: a verify that shows "ghp_1234…"
// or cuts the token in half is caught too, while a login shares no such run with a random token.
const leakedRunLength = 12;

/** Whether `text` holds `value`, or any run of {@link leakedRunLength} of its characters. */
function holdsPartOf(text: string, value: string): boolean {
  if (value.length <= leakedRunLength) return text.includes(value);
  for (let start = 0; start + leakedRunLength <= value.length; start += 1) {
    if (text.includes(value.slice(start, start + leakedRunLength))) return true;
  }
  return false;
}

/**
 * The identity a `verify` reported, fit to store and show, or undefined when it is not: identity is
 * display-only, so one that contains a credential value (a verify that echoes the token) or 12
 * characters in a row of one is dropped whole rather than trimmed, and so is anything that is not a short single-line string.
 * Which values count: those of `secretFields` when given, else every credential value.
 */
export function displayIdentity(
  identity: unknown,
  credentials: Credentials | undefined,
  secretFields?: readonly string[],
): string | undefined {
  if (typeof identity !== 'string') return undefined;
  const trimmed = identity.trim();
  if (trimmed === '' || trimmed.length > 200 || /[\r\n]/.test(trimmed)) return undefined;
  const lower = trimmed.toLowerCase();
  for (const value of secretCredentialValues(credentials, secretFields)) {
    if (value.length < minCredentialLength) continue;
    if (holdsPartOf(lower, value.toLowerCase())) return undefined;
  }
  return trimmed;
}
