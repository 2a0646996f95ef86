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
