function canonicalize(value: unknown, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') {
    // JSON has no undefined, NaN or functions; normalise them the way JSON.stringify would.
    if (typeof value === 'number' && !Number.isFinite(value)) return null;
    return value;
  }
  if (seen.has(value)) throw new TypeError('cannot canonicalize a cyclic value');
  seen.add(value);
  let result: unknown;
  if (Array.isArray(value)) {
    result = value.map((item) =>
      item === undefined || typeof item === 'function' ? null : canonicalize(item, seen),
    );
  } else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // A Date (or anything with toJSON) is the value it serialises to, not an object without keys.
    result = canonicalize((value as { toJSON: () => unknown }).toJSON(), seen);
  } else {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key];
      if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue;
      sorted[key] = canonicalize(inner, seen);
    }
    result = sorted;
  }
  seen.delete(value);
  return result;
}

/**
 * JSON of a value with object keys sorted at every depth, so equal values give equal text whatever
 * order their keys were inserted in. Throws a `TypeError` on a cyclic value. It is the identity of a
 * call's arguments (`Proposal.argsHash`) and of a tool definition, so it lives with the contracts.
 */
export function canonicalJson(value: unknown, format: 'compact' | 'pretty' = 'compact'): string {
  return (
    JSON.stringify(canonicalize(value, new WeakSet()), null, format === 'pretty' ? 2 : undefined) ?? 'null'
  );
}
