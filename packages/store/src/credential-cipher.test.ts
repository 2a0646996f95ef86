import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cipherKey, seal, unseal } from './credential-cipher.js';

describe('credential cipher keys', () => {
  it('makes one key object per key buffer and reuses it', () => {
    const raw = randomBytes(32);
    const first = cipherKey(raw);
    expect(cipherKey(raw)).toBe(first);
    expect(first.export().equals(raw)).toBe(true);
    expect(cipherKey(randomBytes(32))).not.toBe(first);
  });

  it('seals with raw bytes and opens with a key object of the same bytes, and the other way round', () => {
    const raw = randomBytes(32);
    const sealed = seal(raw, '{"token":"t"}', 'ctx');
    expect(unseal(createSecretKey(Buffer.from(raw)), sealed, 'ctx', 'test')).toBe('{"token":"t"}');
    const again = seal(createSecretKey(raw), 'second', 'ctx');
    expect(unseal(Buffer.from(raw), again, 'ctx', 'test')).toBe('second');
    expect(() => unseal(randomBytes(32), again, 'ctx', 'test')).toThrow(/cannot be decrypted/);
  });
});
