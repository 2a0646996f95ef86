import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { PatchbayError } from '@patchbay/envelope';

const algorithm = 'aes-256-gcm';
const ivLength = 12;

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
export function seal(key: Buffer, plaintext: string, context: string): SealedValue {
  const iv = randomBytes(ivLength);
  const cipher = createCipheriv(algorithm, key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag() };
}

/**
 * Decrypts a sealed value. A failed authentication (wrong key, tampered row) is a
 * `wrong_secret_key` PatchbayError, never garbage plaintext.
 */
export function unseal(key: Buffer, sealed: SealedValue, context: string, keyOrigin: string): string {
  try {
    const decipher = createDecipheriv(algorithm, key, sealed.iv);
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
