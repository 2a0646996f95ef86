import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSacp } from './parse-sacp.js';
import { sacpReplySchema, sacpStatuses } from './reply.js';

const replyArbitrary = fc.record(
  {
    thought: fc.string(),
    status: fc.constantFrom(...sacpStatuses),
    data: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
    message: fc.string(),
    next_step_hint: fc.string(),
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
      { numRuns: 300 },
    );
  });

  it('finds a well-formed reply wrapped in prose or a fence', () => {
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
          expect(result.reply.data).toEqual(JSON.parse(JSON.stringify(reply.data)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws for non-string input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = parseSacp(value);
        expect(sacpReplySchema.safeParse(result.reply).success).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
