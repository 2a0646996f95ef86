import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsHash } from './args-hash.js';

describe('argsHash', () => {
  it('gives equal hashes for equal values whatever the key order, different hashes otherwise', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(argsHash(reversed)).toBe(argsHash(record));
      }),
    );
    expect(argsHash({ id: 'T-1' })).not.toBe(argsHash({ id: 'T-2' }));
    expect(argsHash({ id: 'T-1' })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores undefined properties like JSON does', () => {
    expect(argsHash({ a: 1, b: undefined })).toBe(argsHash({ a: 1 }));
  });
});
