import type { Credentials } from '@patchbay/connector';
import { type KeyringKey, openWithRing } from './keyring.js';
import { type ConnectionRow, credentialContext } from './store-rows.js';

/** How many decrypted credentials a store keeps by default. */
export const credentialCacheSize = 1024;

interface Entry {
  iv: Buffer;
  tag: Buffer;
  credentials: Credentials;
}

/**
 * Credentials this process already decrypted, by row (subject and connector) and the exact sealed
 * value (IV and GCM tag): a row read again unchanged is not decrypted again, and any write to it
 * (a new connect, a rotation to another key) seals under a fresh IV, so it misses. The process
 * holds the key that opens every row anyway, so keeping plaintext it opened adds no exposure. Hands
 * out copies; bounded, dropping the oldest entry.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly limit: number = credentialCacheSize) {}

  /** The credentials of a row sealed as `iv`/`tag`, when this exact value was opened before. */
  get(row: string, iv: Uint8Array, tag: Uint8Array): Credentials | undefined {
    const entry = this.entries.get(row);
    if (!entry?.iv.equals(iv) || !entry.tag.equals(tag)) return undefined;
    return { ...entry.credentials };
  }

  /** Remembers what a row sealed as `iv`/`tag` opened to. */
  set(row: string, iv: Uint8Array, tag: Uint8Array, credentials: Credentials): void {
    this.entries.delete(row);
    this.entries.set(row, { iv: Buffer.from(iv), tag: Buffer.from(tag), credentials: { ...credentials } });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Forgets everything (on close). */
  clear(): void {
    this.entries.clear();
  }
}

/**
 * A stored connection's credentials, for both stores: none when the row holds none; from `cache`
 * when this exact sealed value was opened before; else opened with the ring (`keys`, asked only on
 * a miss) and remembered.
 */
export function openConnection(
  cache: CredentialCache,
  subject: string,
  row: ConnectionRow,
  keys: () => readonly KeyringKey[],
): Credentials {
  if (row.credentials_ciphertext === null || row.credentials_iv === null || row.credentials_tag === null)
    return {};
  const context = credentialContext(subject, row.connector_id);
  const opened = cache.get(context, row.credentials_iv, row.credentials_tag);
  if (opened) return opened;
  const plaintext = openWithRing(
    keys(),
    { ciphertext: row.credentials_ciphertext, iv: row.credentials_iv, tag: row.credentials_tag },
    context,
    row.key_id ?? null,
  );
  const credentials = JSON.parse(plaintext) as Credentials;
  cache.set(context, row.credentials_iv, row.credentials_tag, credentials);
  return credentials;
}
