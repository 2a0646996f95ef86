import { z } from 'zod';

/** Credential values by field name (e.g. `{ token }` or `{ account_sid, auth_token }`). Secret. */
export type Credentials = Readonly<Record<string, string>>;

/** How a connector authenticates. */
export const authKinds = ['api_key', 'bearer', 'oauth2', 'basic', 'none'] as const;
/** How a connector authenticates. */
export type AuthKind = (typeof authKinds)[number];

/** One credential field a user supplies when connecting. */
export const credentialFieldSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'credential field names are snake_case'),
  description: z.string().min(1),
  /** Secret fields are never echoed, logged or stored unencrypted. */
  secret: z.boolean().default(true),
  /** Environment variable conventionally holding this field, for the CLI. */
  env: z.string().optional(),
  /**
   * Whether connecting works without this field (a region, a self-hosted base URL, a workspace id).
   * Optional fields are neither demanded nor prompted for; only values given are stored. Absent means
   * false, and is left absent so manifests written before the flag existed parse to the same value.
   */
  optional: z.boolean().optional(),
});
/** One credential field a user supplies when connecting. */
export type CredentialField = z.input<typeof credentialFieldSchema>;

/** A permission a connector may be granted. */
export const scopeSchema = z.object({
  name: z.string().min(1),
  description: z.string().min(1),
  /**
   * Other declared scopes a grant of this one includes (GitHub's `repo` includes `public_repo`).
   * Applied wherever granted scopes meet required ones, so a connection stored with only the parent
   * scope passes tools that require a child, however it was stored.
   */
  implies: z.array(z.string().min(1)).optional(),
});
/** A permission a connector may be granted. */
export type Scope = z.infer<typeof scopeSchema>;

/** The auth declaration of a connector manifest. */
export const authSchema = z.object({
  kind: z.enum(authKinds),
  scopes: z.array(scopeSchema).default([]),
  fields: z
    .array(credentialFieldSchema)
    .default([{ name: 'token', description: 'Access token', secret: true }]),
});
/** The auth declaration of a connector manifest. */
export type AuthDeclaration = z.input<typeof authSchema>;

/** What `verify` reports about a set of credentials. */
export type VerifyResult =
  | {
      valid: true;
      /** Scopes the credentials grant. Services that do not expose scopes report the manifest's full list. */
      scopes: string[];
      /** Who the credentials belong to (login, workspace), for display. Never a secret. */
      identity?: string;
    }
  | {
      valid: false;
      /** `invalid_credentials` for revoked/wrong credentials, `rate_limited` or `unreachable` when it could not tell. */
      reason: 'invalid_credentials' | 'rate_limited' | 'unreachable';
      /** A sentence without secrets. */
      message: string;
      /** Seconds to wait when rate limited. */
      retryAfterS?: number;
    };

/** Options every `verify` call receives. */
export interface VerifyOptions {
  signal?: AbortSignal;
}

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
