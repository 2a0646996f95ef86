import fc from 'fast-check';
import { errorDefaults } from './constructors.js';
import { errorTypes } from './error-types.js';
import { HttpError } from './http-error.js';
import { REDACTED } from './redact.js';

/**
 * Values that break code which trusts what it reads: throwing traps and getters, revoked proxies,
 * throwing conversions, cycles, deep nesting and huge strings. The arbitraries below put them into
 * every field `toEnvelope` reads, on purpose, so that a property finds a crash in a few hundred runs
 * instead of by luck.
 */

function explode(what: string): never {
  throw new Error(`${what} exploded at /srv/app/internal.js:12`);
}

const describeProxy = () => 'throwingProxy()';

/**
 * A proxy whose every trap throws, except for fast-check's own symbols (its clone probe and its
 * way of printing a counterexample), so that a failing run can still be reported.
 */
function throwingProxy(target: object = {}): object {
  const own = (key: PropertyKey) =>
    key === fc.cloneMethod || key === fc.toStringMethod || key === fc.asyncToStringMethod;
  return new Proxy(target, {
    get: (_target, key) =>
      key === fc.toStringMethod ? describeProxy : own(key) ? undefined : explode('get'),
    has: (_target, key) => (own(key) ? key === fc.toStringMethod : explode('has')),
    ownKeys: () => explode('ownKeys'),
    getOwnPropertyDescriptor: () => explode('getOwnPropertyDescriptor'),
    getPrototypeOf: () => explode('getPrototypeOf'),
  });
}

// fast-check probes every generated value for its clone symbol, which a revoked proxy answers by
// throwing; so generators yield this placeholder and `materialize` swaps in the proxy when the
// value is placed inside an object.
const revokedPlaceholder = Object.freeze({ placeholder: 'revoked proxy' });

function materialize(value: unknown): unknown {
  if (value !== revokedPlaceholder) return value;
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function cyclic(inner: unknown): object {
  const value: Record<string, unknown> = { message: 'cyclic', inner };
  value.cause = value;
  value.errors = [value];
  value.issues = [value];
  value.body = value;
  return value;
}

/** `{ cause: { cause: ... } }`, `depth` levels deep, built without recursion. */
function deepCauses(depth: number, leaf: unknown): object {
  let current: Record<string, unknown> = { cause: leaf, message: 'bottom' };
  for (let level = 0; level < depth; level += 1) current = { cause: current, message: `level ${level}` };
  return current;
}

function deepErrors(depth: number): Error {
  let current = new Error('bottom', { cause: Object.assign(new Error('socket'), { code: 'ECONNRESET' }) });
  for (let level = 0; level < depth; level += 1) current = new Error(`level ${level}`, { cause: current });
  return current;
}

const hugeText = `${'x'.repeat(1 << 17)} ghp_${'A'.repeat(36)}`;

const throwingConversions = fc.constantFrom<() => unknown>(
  () => ({ toString: () => explode('toString') }),
  () => ({ valueOf: () => explode('valueOf'), toString: () => explode('toString') }),
  () => ({ [Symbol.toPrimitive]: () => explode('toPrimitive') }),
  () => ({ toJSON: () => explode('toJSON') }),
  () => Object.create(null),
  () => Symbol('field'),
  () => 10n ** 30n,
  () => () => 'a function',
  () => Number.NaN,
  () => -0,
  () => Number.POSITIVE_INFINITY,
  () => new Date(Number.NaN),
  // A sparse array: holes read as undefined but are not own keys.
  () => Object.assign(new Array(3), { 2: undefined }),
);

/** One field value that code reading an error should survive: anything, or something hostile. */
export const hostileFieldArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.anything({ withBigInt: true, withDate: true, withNullPrototype: true }), weight: 4 },
  { arbitrary: fc.string(), weight: 2 },
  { arbitrary: fc.array(fc.anything(), { maxLength: 3 }), weight: 2 },
  { arbitrary: throwingConversions.map((make) => make()), weight: 2 },
  { arbitrary: fc.constant(null).map(() => throwingProxy()), weight: 1 },
  { arbitrary: fc.constant(null).map(() => throwingProxy([])), weight: 1 },
  { arbitrary: fc.constant(revokedPlaceholder), weight: 1 },
  { arbitrary: fc.anything().map(cyclic), weight: 1 },
  { arbitrary: fc.integer({ min: 6, max: 20_000 }).map((depth) => deepCauses(depth, null)), weight: 1 },
  { arbitrary: fc.integer({ min: 6, max: 5_000 }).map(deepErrors), weight: 1 },
  { arbitrary: fc.constant(hugeText), weight: 1 },
);

const errorNames = [
  'ZodError',
  '$ZodError',
  'TimeoutError',
  'AbortError',
  'TypeError',
  'Error',
  'AggregateError',
  'PatchbayError',
  'HttpError',
] as const;

// Every field some branch of `toEnvelope` reads from an error-shaped value.
const errorFields = [
  'message',
  'code',
  'issues',
  'cause',
  'errors',
  'status',
  'statusCode',
  'headers',
  'body',
  'response',
  'data',
  'ok',
  'error',
  'stack',
  'meta',
  'user_message',
  'error_type',
] as const;

type Base = 'plain' | 'null-prototype' | 'error' | 'forged-patchbay' | 'http-error';

/** Puts `fields` on an object of the given base; a field marked as a getter throws when read. */
function build(base: Base, name: unknown, fields: [string, unknown, boolean][]): object {
  let target: Record<PropertyKey, unknown>;
  if (base === 'null-prototype') target = Object.create(null);
  else if (base === 'error') target = new Error('base') as unknown as Record<PropertyKey, unknown>;
  else if (base === 'http-error') {
    target = new HttpError({ status: 500, body: 'base' }) as unknown as Record<PropertyKey, unknown>;
  } else target = {};
  // A copy of the package's brand, as a duplicated install would set it: code and message are untrusted.
  if (base === 'forged-patchbay') {
    Object.defineProperty(target, Symbol.for('patchbay.error'), { value: true });
  }
  const all: [string, unknown, boolean][] = [['name', name, false], ...fields];
  for (const [key, value, throws] of all) {
    Object.defineProperty(target, key, {
      configurable: true,
      enumerable: true,
      ...(throws ? { get: () => explode(`getter ${key}`) } : { value: materialize(value), writable: true }),
    });
  }
  return target;
}

/** Error-shaped objects (zod, abort, HTTP, Patchbay, SDK errors) whose fields hold hostile values. */
export const hostileErrorArbitrary: fc.Arbitrary<object> = fc
  .tuple(
    fc.constantFrom<Base>('plain', 'plain', 'null-prototype', 'error', 'forged-patchbay', 'http-error'),
    fc.oneof({ arbitrary: fc.constantFrom(...errorNames), weight: 4 }, hostileFieldArbitrary),
    fc.uniqueArray(
      fc.tuple(
        fc.constantFrom(...errorFields),
        hostileFieldArbitrary,
        fc.integer({ min: 0, max: 4 }).map((roll) => roll === 0),
      ),
      { selector: ([key]) => key, maxLength: 6 },
    ),
  )
  .map(([base, name, fields]) => build(base, name, fields));

/** Zod-shaped errors: readable `name` and array `issues`, whose issues and other fields are hostile. */
export const zodShapedArbitrary: fc.Arbitrary<object> = fc
  .tuple(
    fc.constantFrom('ZodError', '$ZodError'),
    fc.array(
      fc.oneof(
        hostileFieldArbitrary,
        fc.record(
          { code: hostileFieldArbitrary, path: hostileFieldArbitrary, message: hostileFieldArbitrary },
          { requiredKeys: [] },
        ),
        fc.record({
          code: fc.constant('invalid_type'),
          path: fc.array(fc.oneof(fc.string(), fc.integer(), hostileFieldArbitrary), { maxLength: 3 }),
          message: fc.oneof(fc.string(), hostileFieldArbitrary),
        }),
      ),
      { maxLength: 4 },
    ),
    fc.uniqueArray(fc.tuple(fc.constantFrom('message', 'code', 'cause', 'stack'), hostileFieldArbitrary), {
      selector: ([key]) => key,
      maxLength: 4,
    }),
  )
  .map(([name, issues, fields]) => ({
    ...Object.fromEntries(fields.map(([key, value]) => [key, materialize(value)])),
    name,
    issues: issues.map(materialize),
  }));

// The envelope's own words: field names, error types, default messages, the redaction marker.
const envelopeWords = [
  ...errorTypes,
  ...errorTypes.map((type) => errorDefaults(type).message),
  'error_type',
  'user_message',
  'retryable',
  'retry_after_s',
  'setup_url',
  'connector',
  'missing',
  'missing_scopes',
  'issues',
  'proposal_id',
  'correlation_id',
  'duration_ms',
  'status_code',
  'question',
  'message',
  'field',
  'path',
  'meta',
  'data',
  'tool',
  'github',
  'github_get_issue',
  REDACTED,
  'REDACTED',
];

/** A piece (4 characters or more) of a word the envelope itself is made of. */
const envelopeWordPiece: fc.Arbitrary<string> = fc
  .constantFrom(...envelopeWords)
  .chain((word) =>
    fc
      .integer({ min: 0, max: Math.max(0, word.length - 4) })
      .chain((start) =>
        fc
          .integer({ min: Math.min(word.length, start + 4), max: word.length })
          .map((end) => word.slice(start, end)),
      ),
  );

/**
 * Secret lists as a caller may pass them: random strings, and strings that are part of the envelope's
 * own vocabulary (a short credential can be "ents", which `invalid_arguments` contains).
 */
export const secretsArbitrary: fc.Arbitrary<string[]> = fc.array(
  fc.oneof(fc.string(), envelopeWordPiece, envelopeWordPiece),
  { maxLength: 4 },
);
