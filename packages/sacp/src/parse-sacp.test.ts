import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileDataSchema } from './data-schema.js';
import { parseSacp } from './parse-sacp.js';
import { buildReaskInstruction } from './reask.js';

const valid = (data: unknown) => JSON.stringify({ thought: 't', status: 'success', data, message: 'm' });

describe('parseSacp with a data schema', () => {
  const zodSchema = z.object({ order_id: z.string(), total: z.number().min(0) });
  const jsonSchema = {
    type: 'object',
    properties: { order_id: { type: 'string' }, total: { type: 'number', minimum: 0 } },
    required: ['order_id', 'total'],
  };

  it.each([
    ['zod', zodSchema],
    ['JSON Schema', jsonSchema],
  ] as const)('accepts data matching a %s schema', (_kind, dataSchema) => {
    const result = parseSacp(valid({ order_id: 'A-1', total: 3 }), { dataSchema });
    expect(result.ok).toBe(true);
    expect(result.issues).toBeUndefined();
  });

  it.each([
    ['zod', zodSchema],
    ['JSON Schema', jsonSchema],
  ] as const)(
    'reports issues with data paths for a %s schema, keeping the model reply',
    (_kind, dataSchema) => {
      const result = parseSacp(valid({ total: -1 }), { dataSchema });
      expect(result.ok).toBe(false);
      expect(result.fallback).toBe(false);
      expect(result.reply.status).toBe('success');
      const paths = (result.issues ?? []).map((issue) => issue.path).sort();
      expect(paths).toEqual(['data.order_id', 'data.total']);
    },
  );

  it('does not hold failure or clarification replies to the data schema', () => {
    for (const status of ['failure', 'clarification_needed']) {
      const text = JSON.stringify({ thought: '', status, data: {}, message: 'Which order?' });
      expect(parseSacp(text, { dataSchema: zodSchema }).ok).toBe(true);
    }
  });

  it('rejects a JSON Schema ajv cannot compile when compiled, but parseSacp still does not throw', () => {
    const broken = { type: 'not-a-type' };
    expect(() => compileDataSchema(broken)).toThrow(
      expect.objectContaining({ code: 'sacp_invalid_data_schema' }),
    );
    const result = parseSacp(valid({}), { dataSchema: broken });
    expect(result.ok).toBe(false);
    expect(result.reply.status).toBe('failure');
  });
});

describe('parseSacp fallback', () => {
  it('keeps the raw text, cut to the configured limit without splitting a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀 and more prose`;
    const result = parseSacp(text, { maxRawOutputChars: 10 });
    expect(result.fallback).toBe(true);
    expect(result.reply.data.raw_output).toBe('a'.repeat(9));
    expect(result.reply.data.raw_output_truncated).toBe(true);
    expect(result.reply.data.raw_output_length).toBe(text.length);
    expect(result.reply.message).toMatch(/could not be read/);
  });

  it('explains which field was wrong when an object was found but is not a reply', () => {
    const result = parseSacp('{"thought":"t","status":"pending","data":{},"message":"m"}');
    expect(result.fallback).toBe(true);
    expect(result.issues?.[0]?.path).toBe('status');
    expect(result.reply.data.parse_error).toMatch(/status must be one of/);
  });

  it('never evaluates code found in the output', () => {
    const globals = globalThis as Record<string, unknown>;
    delete globals.sacpPwned;
    parseSacp('{"thought": (globalThis.sacpPwned = 1), "status": "success", "data": {}, "message": "m"}');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the point is a JS template literal inside model output.
    parseSacp('{"status": "success", "message": `${globalThis.sacpPwned = 2}`}');
    expect(globals.sacpPwned).toBeUndefined();
  });
});

describe('parseSacp and a "__proto__" key in data', () => {
  it('reads the data as the reply schema does: without the key, the prototype untouched', () => {
    const text = '{"thought":"","status":"success","data":{"__proto__":{"admin":true},"n":1},"message":""}';
    const result = parseSacp(text);
    expect(result.ok).toBe(true);
    expect(result.repairs).toEqual([]);
    const data = result.reply!.data as Record<string, unknown>;
    expect(Object.hasOwn(data, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(data).toEqual({ n: 1 });
    // A consumer copying the data cannot have its object's prototype swapped.
    const target = Object.assign({}, data);
    expect((target as { admin?: boolean }).admin).toBeUndefined();
  });
});

describe('buildReaskInstruction', () => {
  it('lists each issue and asks for the whole JSON reply again', () => {
    const text = buildReaskInstruction([
      { path: 'data.total', message: 'must be >= 0' },
      { path: '', message: 'no JSON object found' },
    ]);
    expect(text).toContain('- data.total: must be >= 0');
    expect(text).toContain('- no JSON object found');
    expect(text).toMatch(/one JSON object/);
  });

  it('caps the list so a wildly wrong reply does not flood the prompt', () => {
    const issues = Array.from({ length: 25 }, (_, index) => ({
      path: `data.k${index}`,
      message: 'is required',
    }));
    const text = buildReaskInstruction(issues);
    expect(text).toContain('data.k9');
    expect(text).not.toContain('data.k10:');
    expect(text).toContain('15 more');
  });
});

describe('parseSacp regressions found by its property tests', () => {
  it('reads a fenced reply whose data holds a "```" key to its own closing brace', () => {
    const reply = { thought: '', status: 'success', data: { '': [{ '```': 0 }] }, message: '' };
    const result = parseSacp(`\n\`\`\`json\n${JSON.stringify(reply)}\n\`\`\`\n`);
    expect(result.ok).toBe(true);
    expect(result.repairs).toEqual(['extracted_from_fence']);
    expect(result.reply.data).toEqual(reply.data);
  });

  it('answers a fallback reply for a value that cannot even be described, instead of throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const result = parseSacp(proxy);
    expect(result.fallback).toBe(true);
    expect(result.reply.status).toBe('failure');
  });
});
