import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsHash, canonicalJson } from './canonical-json.js';

describe('canonicalJson / argsHash', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

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

  it('drops undefined properties like JSON does', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });
});
