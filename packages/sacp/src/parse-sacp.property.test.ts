import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSacp } from './parse-sacp.js';
import { type SacpReply, sacpReplySchema, sacpStatuses } from './reply.js';

// The characters the scanner and the fence finder react to, so that strings inside a reply hold them
// often rather than once in thousands of runs (a "```" key once cut a fenced reply short).
const syntaxPiece = fc.constantFrom(
  '```',
  '```json\n',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '\\',
  '//',
  '/*',
  '*/',
  '\n',
);
const textArbitrary = fc.oneof(
  fc.string(),
  fc
    .array(fc.oneof(syntaxPiece, fc.string({ maxLength: 4 })), { maxLength: 6 })
    .map((parts) => parts.join('')),
);
const dataValueArbitrary = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(textArbitrary, fc.oneof(textArbitrary, fc.integer()), { maxKeys: 3 }),
  fc.array(textArbitrary, { maxLength: 3 }),
);

const replyArbitrary = fc.record(
  {
    thought: textArbitrary,
    status: fc.constantFrom(...sacpStatuses),
    data: fc.dictionary(textArbitrary, dataValueArbitrary, { maxKeys: 4 }),
    message: textArbitrary,
    next_step_hint: textArbitrary,
  },
  { requiredKeys: ['thought', 'status', 'data', 'message'] },
);

// Pieces models tend to emit, glued together at random: JSON-ish strings that stress the scanner and repair.
const jsonishArbitrary = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '{',
        '}',
        '[',
        ']',
        '"',
        "'",
        ',',
        ':',
        '\\',
        '```',
        '```json\n',
        '\n',
        ' ',
        '//',
        '/*',
        '*/',
      ),
      fc.constantFrom(
        '"status"',
        '"success"',
        '"thought"',
        '"data"',
        '"message"',
        'null',
        'true',
        '1.5',
        'SUCCESS',
      ),
      fc.string({ maxLength: 6 }),
      replyArbitrary.map((reply) => JSON.stringify(reply)),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** Every trap throws, except fast-check's own probes (cloning and printing a counterexample). */
function throwingProxy(): object {
  const own = (key: PropertyKey) =>
    key === fc.cloneMethod || key === fc.toStringMethod || key === fc.asyncToStringMethod;
  const explode = (): never => {
    throw new Error('trap');
  };
  return new Proxy(
    {},
    {
      get: (_target, key) =>
        key === fc.toStringMethod ? () => 'throwingProxy()' : own(key) ? undefined : explode(),
      has: (_target, key) => (own(key) ? key === fc.toStringMethod : explode()),
      ownKeys: explode,
      getOwnPropertyDescriptor: explode,
      getPrototypeOf: explode,
    },
  );
}

// Values whose serialisation throws; a revoked proxy cannot be generated directly (fast-check probes
// every value it generates, which a revoked proxy answers by throwing), so it is an `examples` entry.
const hostileArbitrary = fc.oneof(
  fc.constant(null).map(throwingProxy),
  fc.anything().map((inner) => ({
    inner,
    toJSON: () => throwingProxy().toString(),
    toString: () => throwingProxy().toString(),
  })),
  fc.anything().map((inner) => {
    const cyclic: Record<string, unknown> = { inner };
    cyclic.self = cyclic;
    return cyclic;
  }),
);

function expectValidReply(text: string): void {
  const result = parseSacp(text);
  expect(sacpReplySchema.safeParse(result.reply).success).toBe(true);
  expect(Array.isArray(result.repairs)).toBe(true);
  if (result.fallback) {
    expect(result.ok).toBe(false);
    expect(result.reply.status).toBe('failure');
  }
}

describe('parseSacp properties', () => {
  it('returns a schema-valid reply and never throws for any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), expectValidReply), { numRuns: 500 });
  });

  it('returns a schema-valid reply and never throws for JSON-ish strings', () => {
    fc.assert(fc.property(jsonishArbitrary, expectValidReply), { numRuns: 500 });
  });

  it('reads back any well-formed reply exactly, with no repairs', () => {
    fc.assert(
      fc.property(replyArbitrary, (reply) => {
        const result = parseSacp(JSON.stringify(reply));
        expect(result.ok).toBe(true);
        expect(result.repairs).toEqual([]);
        expect(result.reply).toEqual(sacpReplySchema.parse(JSON.parse(JSON.stringify(reply))));
      }),
      // Found on a CI run: an own "__proto__" key in data, which JSON.parse keeps and the schema drops.
      {
        numRuns: 300,
        examples: [[JSON.parse('{"thought":"","status":"success","data":{"__proto__":[]},"message":""}')]],
      },
    );
  });

  it('finds a well-formed reply wrapped in prose or a fence', () => {
    // [before, reply, after, fenced]; each found by this property once and kept.
    const found: [string, SacpReply, string, boolean][] = [
      // A "```" key inside the fenced reply ended the block early and the repaired remainder won.
      ['', { thought: '', status: 'success', data: { '': [{ '```': 0 }] }, message: '' }, '', true],
      // JSON.parse keeps an own "__proto__" key; the schema (and now parseSacp) leaves it out.
      ['', JSON.parse('{"thought":"","status":"success","data":{"__proto__":[]},"message":""}'), '', false],
    ];
    const proseArbitrary = fc.string({ maxLength: 40 }).filter((text) => !/[{}"'`\\]/.test(text));
    fc.assert(
      fc.property(
        proseArbitrary,
        replyArbitrary,
        proseArbitrary,
        fc.boolean(),
        (before, reply, after, fenced) => {
          const body = JSON.stringify(reply);
          const text = fenced
            ? `${before}\n\`\`\`json\n${body}\n\`\`\`\n${after}`
            : `${before} ${body} ${after}`;
          const result = parseSacp(text);
          expect(result.ok).toBe(true);
          expect(result.reply.status).toBe(reply.status);
          // As the reply schema reads it (an own "__proto__" key is not data).
          expect(result.reply.data).toEqual(sacpReplySchema.parse(JSON.parse(body)).data);
        },
      ),
      { numRuns: 300, examples: found },
    );
  });

  it('never throws for non-string input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), hostileArbitrary), (value) => {
        const result = parseSacp(value);
        expect(sacpReplySchema.safeParse(result.reply).success).toBe(true);
      }),
      { numRuns: 300, examples: [[revokedProxy()], [throwingProxy()]] },
    );
  });
});
