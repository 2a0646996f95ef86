import { createHmac } from 'node:crypto';
import { PatchbayError } from '@patchbay/envelope';
import { cipherKey, type SealedValue, unseal } from './credential-cipher.js';
import { parseSecretKey, type ResolvedSecretKey, secretKeyLength } from './secret-key.js';

/**
 * Environment variable with keys credentials may still be sealed with, comma-separated (base64 or
 * hex each): set it to the old key on every instance while a rotation runs, so rows already
 * re-encrypted and rows not yet re-encrypted both read.
 */
export const previousSecretKeysEnv = 'PATCHBAY_PREVIOUS_SECRET_KEYS';

/** Environment variable the `keys rotate` command reads the new key from (when no key file is given). */
export const newSecretKeyEnv = 'PATCHBAY_NEW_SECRET_KEY';

/** A key with where it came from and its id, the fingerprint stored beside every row it sealed. */
export interface KeyringKey extends ResolvedSecretKey {
  /** 16 hex characters of HMAC-SHA256 under the key: names the key without revealing it. */
  id: string;
}

/** The keys a store reads with: the current one (which seals every write) and earlier ones. */
export interface Keyring {
  current: KeyringKey;
  previous: KeyringKey[];
}

/** The id of a key: a fingerprint that identifies it and reveals nothing of it. */
export function keyId(key: Uint8Array): string {
  return createHmac('sha256', cipherKey(key)).update('patchbay key id').digest('hex').slice(0, 16);
}

/** A resolved key with its id. */
export function withKeyId(resolved: ResolvedSecretKey): KeyringKey {
  return { ...resolved, id: keyId(resolved.key) };
}

/** A key given as text (base64 or hex) or 32 bytes, with its id; `origin` names it in errors. */
export function keyFrom(value: string | Uint8Array, origin: string): KeyringKey {
  if (typeof value === 'string') return withKeyId({ key: parseSecretKey(value, origin), origin });
  if (value.length !== secretKeyLength) {
    throw new PatchbayError('invalid_secret_key', `The key from ${origin} must be ${secretKeyLength} bytes.`);
  }
  return withKeyId({ key: Buffer.from(value), origin });
}

/**
 * The previous keys: the explicit list, else `PATCHBAY_PREVIOUS_SECRET_KEYS` (comma-separated).
 * Each is refused like the main key when it is not 32 bytes of base64 or hex.
 */
export function previousKeys(
  explicit: readonly (string | Uint8Array)[] | undefined,
  environment: NodeJS.ProcessEnv,
): KeyringKey[] {
  if (explicit !== undefined)
    return explicit.map((value, index) => keyFrom(value, `previous secret key ${index + 1}`));
  const text = environment[previousSecretKeysEnv];
  if (text === undefined || text.trim() === '') return [];
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, index) => keyFrom(part, `${previousSecretKeysEnv} (key ${index + 1})`));
}

/** Every key of a ring, current first, each once. */
export function ringKeys(keyring: Keyring, extra: readonly KeyringKey[] = []): KeyringKey[] {
  const seen = new Set<string>();
  return [keyring.current, ...keyring.previous, ...extra].filter((key) => {
    if (seen.has(key.id)) return false;
    seen.add(key.id);
    return true;
  });
}

/**
 * Opens a sealed value with the key its row names (`keyIdOfRow`), or, for a row from before key
 * ids were recorded (NULL), with whichever key of the ring authenticates it. A row sealed with a
 * key this process does not have is `wrong_secret_key`, naming the key id it needs.
 */
export function openWithRing(
  keys: readonly KeyringKey[],
  sealed: SealedValue,
  context: string,
  keyIdOfRow: string | null,
): string {
  if (keyIdOfRow !== null) {
    const key = keys.find((candidate) => candidate.id === keyIdOfRow);
    if (!key) {
      throw new PatchbayError(
        'wrong_secret_key',
        `Stored credentials were sealed with the secret key ${keyIdOfRow}, which this process does not have (it has ${keys.map((candidate) => candidate.id).join(', ')}). ` +
          `Set PATCHBAY_SECRET_KEY to that key, or list it in ${previousSecretKeysEnv} while a key rotation runs.`,
      );
    }
    return unseal(key.key, sealed, context, key.origin);
  }
  let failure: unknown;
  for (const key of keys) {
    try {
      return unseal(key.key, sealed, context, key.origin);
    } catch (error) {
      failure ??= error;
    }
  }
  throw failure;
}

/** Options of a store's `rotateSecretKey`. */
export interface RotateSecretKeyOptions {
  /** Rows re-encrypted per transaction (default 50): small, so an interruption loses at most one uncommitted batch of work, never a credential. */
  batchSize?: number;
  /** Called after every committed batch with the running total; throwing stops the rotation there (a rerun resumes). */
  afterBatch?: (progress: { rotated: number }) => void | Promise<void>;
}

/** What a rotation did. */
export interface RotationReport {
  /** Id of the key every credential is now sealed with. */
  keyId: string;
  /** Rows re-encrypted by this run (a resumed run counts only the rows it did). */
  rotated: number;
}

/** The batch size of a rotation, checked. */
export function rotationBatchSize(options: RotateSecretKeyOptions): number {
  const size = options.batchSize ?? 50;
  if (!Number.isInteger(size) || size < 1) {
    throw new PatchbayError('invalid_arguments', 'batchSize must be a positive integer.');
  }
  return size;
}
