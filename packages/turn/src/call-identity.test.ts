import type { JsonSchema } from '@patchbay/connector';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callIdentity, type ToolInputContract } from './call-identity.js';

const identityOf = (args: unknown, contract?: ToolInputContract) =>
  callIdentity('tool', { input: JSON.stringify(args), arguments: { ok: true, value: args } }, contract);

const charge = z.object({
  amount: z.number(),
  currency: z.string().trim().default('usd'),
});

describe('callIdentity', () => {
  it('compares the arguments a zod tool receives: unknown keys, defaults, trimming and key order do not count', () => {
    const contract = { input: charge };
    const first = identityOf({ amount: 5 }, contract);
    expect(identityOf({ amount: 5, note: 'again' }, contract)).toBe(first);
    expect(identityOf({ currency: ' usd ', amount: 5 }, contract)).toBe(first);
    expect(identityOf({ amount: 5, currency: 'usd', x: { y: 1 } }, contract)).toBe(first);
    expect(identityOf({ amount: 6 }, contract)).not.toBe(first);
    expect(identityOf({ amount: 5, currency: 'eur' }, contract)).not.toBe(first);
  });

  it('keeps the keys a loose zod object passes on to the tool', () => {
    const contract = { input: z.looseObject({ amount: z.number() }) };
    expect(identityOf({ amount: 5, memo: 'a' }, contract)).not.toBe(
      identityOf({ amount: 5, memo: 'b' }, contract),
    );
  });

  it('projects through the JSON Schema when the tool has no zod schema (functions, MCP)', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        amount: { type: 'number' },
        currency: { type: 'string', default: 'usd' },
        card: { $ref: '#/$defs/card' },
        lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
        target: {
          anyOf: [
            { type: 'object', properties: { kind: { const: 'user' }, id: { type: 'string' } } },
            { type: 'object', properties: { kind: { const: 'team' }, slug: { type: 'string' } } },
          ],
        },
      },
      $defs: { card: { type: 'object', properties: { last4: { type: 'string' } } } },
    };
    const contract = { inputJsonSchema: schema };
    const base = {
      amount: 5,
      card: { last4: '4242' },
      lines: [{ sku: 'a' }],
      target: { kind: 'team', slug: 'eng' },
    };
    const first = identityOf(base, contract);
    expect(
      identityOf(
        {
          ...base,
          currency: 'usd',
          extra: 1,
          card: { last4: '4242', nickname: 'x' },
          lines: [{ sku: 'a', qty: 9 }],
          target: { kind: 'team', slug: 'eng', noise: true },
        },
        contract,
      ),
    ).toBe(first);
    expect(identityOf({ ...base, card: { last4: '0000' } }, contract)).not.toBe(first);
    expect(identityOf({ ...base, lines: [{ sku: 'b' }] }, contract)).not.toBe(first);
    expect(identityOf({ ...base, target: { kind: 'user', id: 'eng' } }, contract)).not.toBe(first);
  });

  it('keeps keys a JSON Schema admits, and whole objects of a schema that declares no properties', () => {
    const open: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'number' } },
      additionalProperties: {},
    };
    expect(identityOf({ a: 1, b: 1 }, { inputJsonSchema: open })).not.toBe(
      identityOf({ a: 1, b: 2 }, { inputJsonSchema: open }),
    );
    const freeForm: JsonSchema = { type: 'object' };
    expect(identityOf({ q: 'x' }, { inputJsonSchema: freeForm })).not.toBe(
      identityOf({ q: 'y' }, { inputJsonSchema: freeForm }),
    );
    expect(identityOf({ q: 'x' })).not.toBe(identityOf({ q: 'y' }));
  });

  it('never throws: 100,000-deep arguments canonicalise (iteratively); unparsable ones fall back to the text sent', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const deep: unknown = JSON.parse(text);
    const contract = { inputJsonSchema: { type: 'object', properties: { a: {} } } as JsonSchema };
    expect(callIdentity('tool', { input: text, arguments: { ok: true, value: deep } }, contract)).toBe(
      `tool\u0000${text}`,
    );
    expect(callIdentity('tool', { input: '{"a": ', arguments: { ok: false } }, contract)).toBe(
      'tool\u0000raw:{"a": ',
    );
  });

  it('tells tools apart', () => {
    const args = { amount: 5 };
    const text = JSON.stringify(args);
    expect(callIdentity('a', { input: text, arguments: { ok: true, value: args } }, undefined)).not.toBe(
      callIdentity('b', { input: text, arguments: { ok: true, value: args } }, undefined),
    );
  });

  it('fills a default written beside a $ref, as pydantic publishes it, so leaving it out is no new call', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { title: { type: 'string' }, priority: { $ref: '#/$defs/priority', default: 'normal' } },
      $defs: { priority: { type: 'string', enum: ['low', 'normal', 'high'] } },
    };
    const contract = { inputJsonSchema: schema };
    const first = identityOf({ title: 'Printer jammed' }, contract);
    expect(identityOf({ title: 'Printer jammed', priority: 'normal' }, contract)).toBe(first);
    expect(identityOf({ title: 'Printer jammed', priority: 'high' }, contract)).not.toBe(first);
  });

  it('applies properties written beside a $ref together with the referenced ones', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { item: { $ref: '#/$defs/base', properties: { color: { type: 'string' } } } },
      $defs: { base: { type: 'object', properties: { id: { type: 'string' } } } },
    };
    const contract = { inputJsonSchema: schema };
    expect(identityOf({ item: { id: 'a', color: 'red' } }, contract)).not.toBe(
      identityOf({ item: { id: 'a', color: 'blue' } }, contract),
    );
    expect(identityOf({ item: { id: 'a', extra: 1 } }, contract)).toBe(
      identityOf({ item: { id: 'a' } }, contract),
    );
  });

  it('keeps undeclared keys where additionalProperties is false: the gate refuses that call, so its fix is no repeat', () => {
    const contract = {
      inputJsonSchema: {
        type: 'object',
        properties: { id: { type: 'string' }, text: { type: 'string' } },
        additionalProperties: false,
      } as JsonSchema,
    };
    expect(identityOf({ id: 'n1', text: 'hi', note: 'again' }, contract)).not.toBe(
      identityOf({ id: 'n1', text: 'hi' }, contract),
    );
  });
});
