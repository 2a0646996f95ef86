import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceedsDepth, maxArgumentDepth } from './argument-limits.js';
import { canonicalJson } from './canonical-json.js';

/** An array nested `depth` levels deep around `inner`, built without recursion. */
function nested(depth: number, inner: unknown = 0): unknown {
  let value = inner;
  for (let level = 1; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return depth === 0 ? inner : [value];
}

/** Sorts keys the recursive way, for comparing with JSON.stringify on values it can handle. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedCopy((value as Record<string, unknown>)[key])]),
  );
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops what JSON drops', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null }, e: undefined })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([undefined, () => 1, Symbol('s'), Number.NaN, -0])).toBe('[null,null,null,null,0]');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ boxed: new String('x'), count: new Number(2) })).toBe('{"boxed":"x","count":2}');
  });

  it('gives equal text for equal values whatever the key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
      { numRuns: 300 },
    );
  });

  it('is the JSON of the key-sorted value, compact and pretty', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(JSON.stringify(sortedCopy(value)));
        expect(canonicalJson(value, 'pretty')).toBe(JSON.stringify(sortedCopy(value), null, 2));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('writes a Date as its ISO text and refuses a cyclic value', () => {
    expect(canonicalJson({ at: new Date('2026-11-21T15:00:00Z') })).toBe('{"at":"2026-11-21T15:00:00.000Z"}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    const shared = { x: 1 };
    // The same object twice side by side is not a cycle.
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it('writes values of any depth without a RangeError (10,000 levels and more)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2_000, max: 12_000 }), fc.jsonValue({ maxDepth: 2 }), (depth, inner) => {
        // The expected text, built level by level the same way the value was.
        let expected = canonicalJson(inner);
        for (let level = 1; level < depth; level += 1)
          expected = level % 2 === 0 ? `[${expected}]` : `{"a":${expected}}`;
        expect(canonicalJson(nested(depth, inner))).toBe(`[${expected}]`);
      }),
      { numRuns: 20 },
    );
    const tenThousand = canonicalJson(nested(10_000, 'bottom'));
    expect(tenThousand).toContain('"bottom"');
    expect(tenThousand.split('[').length - 1 + (tenThousand.split('{').length - 1)).toBe(10_000);
  });

  it('writes wide values (100,000 keys) sorted', () => {
    const wide: Record<string, number> = {};
    for (let index = 100_000; index > 0; index -= 1) wide[`k${index}`] = index;
    const text = canonicalJson(wide);
    const parsed = JSON.parse(text) as Record<string, number>;
    const keys = Object.keys(parsed);
    expect(keys).toHaveLength(100_000);
    expect(keys).toEqual([...keys].sort());
    expect(canonicalJson(Object.fromEntries(Object.entries(wide).reverse()))).toBe(text);
  });
});

describe('exceedsDepth', () => {
  it('measures depth exactly: the outermost object or array is level 1', () => {
    expect(exceedsDepth({ a: 1 }, 1)).toBe(false);
    expect(exceedsDepth({ a: [] }, 1)).toBe(true);
    expect(exceedsDepth('text', 0)).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (depth, limit) => {
        expect(exceedsDepth(nested(depth), limit)).toBe(depth > limit);
      }),
    );
  });

  it('answers for any depth and width without recursion, and treats a cycle as too deep', () => {
    expect(exceedsDepth(nested(100_000))).toBe(true);
    expect(exceedsDepth(nested(maxArgumentDepth))).toBe(false);
    expect(exceedsDepth(nested(maxArgumentDepth + 1))).toBe(true);
    const wide = Object.fromEntries(
      Array.from({ length: 100_000 }, (_, index) => [`k${index}`, { v: [index] }]),
    );
    expect(exceedsDepth(wide)).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(exceedsDepth(cyclic)).toBe(true);
  });
});
