import { PatchbayError } from '@patchbay/envelope';
import type { ConnectionSummary } from './store.js';

/**
 * Row shapes and mappers both dialects share: SQLite and Postgres use the same column names, so a
 * column added to `connections` (or `proposals`, in proposal-rows.ts) is mapped here once.
 */

/** Stored in `admin_policy.subject` for rules that apply to every subject. */
export const everySubject = '';

/** `store_meta` key of the value sealed with the first secret key a database saw. */
export const keyCheckName = 'key_check';
/** What that value decrypts to under the right key. */
export const keyCheckPlaintext = 'patchbay-secret-key-check';

/** A `connections` row as both dialects return it. */
export interface ConnectionRow {
  connector_id: string;
  credentials_ciphertext: Uint8Array | null;
  credentials_iv: Uint8Array | null;
  credentials_tag: Uint8Array | null;
  scopes: string;
  identity: string | null;
  credential_error: string | null;
  verified_at: string | null;
  /** Origin (scheme://host:port) the credentials were verified against; NULL for rows from before. */
  verified_origin: string | null;
  /** Id of the key that sealed the credentials (the key id); NULL for rows from before it was recorded. */
  key_id: string | null;
}

/** A row as listed: never decrypted. */
export function summary(row: ConnectionRow): ConnectionSummary {
  const result: ConnectionSummary = {
    connectorId: row.connector_id,
    hasCredentials: row.credentials_ciphertext !== null,
    scopes: JSON.parse(row.scopes) as string[],
  };
  if (row.identity !== null) result.identity = row.identity;
  if (row.credential_error !== null) result.credentialError = row.credential_error;
  if (row.verified_at !== null) result.verifiedAt = row.verified_at;
  if (row.verified_origin !== null) result.verifiedOrigin = row.verified_origin;
  return result;
}

/** Throws `invalid_arguments` unless `value` is a non-empty string. */
export function requireName(value: string, what: string): void {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PatchbayError('invalid_arguments', `${what} must be a non-empty string.`);
  }
}

/** Additional authenticated data binding a credential row to its subject and connector. */
export const credentialContext = (subject: string, connectorId: string) =>
  `patchbay:credentials:${JSON.stringify([subject, connectorId])}`;

/** The key-check value as stored: IV, tag and ciphertext in one blob. */
export function packSealed(sealed: { iv: Uint8Array; tag: Uint8Array; ciphertext: Uint8Array }): Buffer {
  return Buffer.concat([sealed.iv, sealed.tag, sealed.ciphertext]);
}

/** The inverse of {@link packSealed}. */
export function unpackSealed(value: Uint8Array): { iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const bytes = Buffer.from(value);
  return { iv: bytes.subarray(0, 12), tag: bytes.subarray(12, 28), ciphertext: bytes.subarray(28) };
}

/** ISO time of a rate limit, normalised to UTC; `invalid_arguments` when `until` is not a time. */
export function normaliseUntil(until: string): string {
  const time = Date.parse(until);
  if (Number.isNaN(time)) throw new PatchbayError('invalid_arguments', `"${until}" is not an ISO time.`);
  return new Date(time).toISOString();
}

/** A checkpoint as stored: JSON text, refusing values JSON cannot hold. */
export function checkpointJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new PatchbayError('invalid_arguments', 'A checkpoint must be a JSON value.');
  return json;
}
