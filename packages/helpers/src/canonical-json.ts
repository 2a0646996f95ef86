/** An array or object being written: its members still to visit and the text of those done. */
interface Frame {
  source: object;
  /** Object keys in sorted order, or undefined for an array. */
  keys: string[] | undefined;
  items: readonly unknown[] | Record<string, unknown>;
  index: number;
  parts: string[];
}

/** Marks a member JSON leaves out (undefined, a function, a symbol). */
const omitted = Symbol('omitted');

/** What JSON.stringify would serialise in place of a value: `toJSON` applied, boxed primitives unwrapped. */
function jsonValueOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // A Date (or anything with toJSON) is the value it serialises to, not an object without keys.
    return (value as { toJSON: () => unknown }).toJSON();
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  return value;
}

/** Keys that JavaScript orders as array indices in every object, whatever the insertion order. */
const arrayIndex = /^(?:0|[1-9]\d{0,9})$/;

/**
 * Keys in the order canonical JSON has always written them: array-index keys ascending by number
 * (JavaScript itself lists them first in any object), then the others sorted by UTF-16 code unit.
 * Kept exactly, because stored `argsHash` and definition hashes depend on it.
 */
function sortedKeys(value: object): string[] {
  const indices: string[] = [];
  const names: string[] = [];
  for (const key of Object.keys(value)) {
    if (arrayIndex.test(key) && Number(key) < 4_294_967_295) indices.push(key);
    else names.push(key);
  }
  indices.sort((left, right) => Number(left) - Number(right));
  return [...indices, ...names.sort()];
}

/** Text of a primitive, or undefined for what JSON leaves out (undefined, functions, symbols). */
function primitiveText(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // JSON has no NaN or Infinity; JSON.stringify writes them as null.
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return String(value);
    case 'bigint':
      throw new TypeError('cannot canonicalize a BigInt');
    default:
      return undefined;
  }
}

/**
 * JSON of a value with object keys sorted at every depth, so equal values give equal text whatever
 * order their keys were inserted in. Throws a `TypeError` on a cyclic value or a BigInt. It is the
 * identity of a call's arguments (`Proposal.argsHash`) and of a tool definition, so it lives with
 * the contracts. Iterative: any depth (10,000 levels and more) and any width are written without
 * growing the call stack, so hostile arguments get an answer instead of a `RangeError`.
 */
export function canonicalJson(value: unknown, format: 'compact' | 'pretty' = 'compact'): string {
  const pretty = format === 'pretty';
  const separator = pretty ? ': ' : ':';
  /** Objects on the path from the root to the member being written: a repeat is a cycle. */
  const ancestors = new Set<object>();
  const stack: Frame[] = [];

  const close = (frame: Frame): string => {
    const [open, end] = frame.keys === undefined ? ['[', ']'] : ['{', '}'];
    if (frame.parts.length === 0) return `${open}${end}`;
    if (!pretty) return `${open}${frame.parts.join(',')}${end}`;
    const inner = '  '.repeat(stack.length + 1);
    const outer = '  '.repeat(stack.length);
    return `${open}\n${inner}${frame.parts.join(`,\n${inner}`)}\n${outer}${end}`;
  };

  /** The text of a primitive member, or undefined after opening a frame for an array or object. */
  const begin = (member: unknown): string | typeof omitted | undefined => {
    const current = jsonValueOf(member);
    if (current === null || typeof current !== 'object') return primitiveText(current) ?? omitted;
    if (ancestors.has(current)) throw new TypeError('cannot canonicalize a cyclic value');
    ancestors.add(current);
    stack.push(
      Array.isArray(current)
        ? { source: current, keys: undefined, items: current, index: 0, parts: [] }
        : {
            source: current,
            keys: sortedKeys(current),
            items: current as Record<string, unknown>,
            index: 0,
            parts: [],
          },
    );
    return undefined;
  };

  const root = begin(value);
  if (root !== undefined) return root === omitted ? 'null' : root;
  let result = 'null';
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const length = frame.keys === undefined ? (frame.items as readonly unknown[]).length : frame.keys.length;
    if (frame.index >= length) {
      stack.pop();
      ancestors.delete(frame.source);
      const text = close(frame);
      const parent = stack.at(-1);
      if (!parent) {
        result = text;
        break;
      }
      const key = parent.keys?.[parent.index - 1];
      parent.parts.push(key === undefined ? text : `${JSON.stringify(key)}${separator}${text}`);
      continue;
    }
    const index = frame.index;
    frame.index += 1;
    const key = frame.keys?.[index];
    const member =
      key === undefined
        ? (frame.items as readonly unknown[])[index]
        : (frame.items as Record<string, unknown>)[key];
    const text = begin(member);
    if (text === undefined) continue; // an array or object: its frame is now on top
    // JSON leaves out object members it cannot write, and writes null for such array items.
    if (text === omitted) {
      if (key === undefined) frame.parts.push('null');
      continue;
    }
    frame.parts.push(key === undefined ? text : `${JSON.stringify(key)}${separator}${text}`);
  }
  return result;
}
