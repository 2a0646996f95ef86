import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { PatchbayError } from '@patchbay/envelope';

const algorithm = 'aes-256-gcm';
const ivLength = 12;

/** A key as the cipher takes it: raw bytes (made into a key object once) or a key object. */
export type CipherKey = Uint8Array | KeyObject;

const keyObjects = new WeakMap<Uint8Array, KeyObject>();

/**
 * The key object for a key, made once per key buffer and reused: handing `createCipheriv` raw bytes
 * makes Node build a key object on every call, most of the cost of a small decrypt. The buffer must
 * not change after its first use (the store's keys never do).
 */
export function cipherKey(key: CipherKey): KeyObject {
  if (!(key instanceof Uint8Array)) return key;
  let made = keyObjects.get(key);
  if (!made) {
    made = createSecretKey(key);
    keyObjects.set(key, made);
  }
  return made;
}

/** One encrypted value as stored: ciphertext, its random 12-byte IV and the GCM auth tag. */
export interface SealedValue {
  ciphertext: Uint8Array;
  iv: Uint8Array;
  tag: Uint8Array;
}

/**
 * Encrypts with AES-256-GCM under a fresh random IV. `context` is bound as additional data so a
 * sealed value copied to another row (another subject or connector) no longer decrypts.
 */
export function seal(key: CipherKey, plaintext: string, context: string): SealedValue {
  const iv = randomBytes(ivLength);
  const cipher = createCipheriv(algorithm, cipherKey(key), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag() };
}

/**
 * Decrypts a sealed value. A failed authentication (wrong key, tampered row) is a
 * `wrong_secret_key` PatchbayError, never garbage plaintext.
 */
export function unseal(key: CipherKey, sealed: SealedValue, context: string, keyOrigin: string): string {
  try {
    const decipher = createDecipheriv(algorithm, cipherKey(key), sealed.iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new PatchbayError(
      'wrong_secret_key',
      `Stored credentials cannot be decrypted with the secret key from ${keyOrigin}. ` +
        'The key differs from the one they were saved with: restore the original key, or disconnect and connect again.',
      { cause: error },
    );
  }
}
