import { PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { createJsonSchemaCompiler, jsonSchemaDialect } from './json-schema-compiler.js';

const draft07 = 'http://json-schema.org/draft-07/schema#';
const draft2020 = 'https://json-schema.org/draft/2020-12/schema';

const contact = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    since: { type: 'string', format: 'date-time' },
    'a/b': { type: 'integer' },
  },
  required: ['email'],
};

describe('createJsonSchemaCompiler', () => {
  it('checks formats in both dialects and in schemas without $schema', () => {
    const compiler = createJsonSchemaCompiler();
    for (const $schema of [draft07, draft2020, undefined]) {
      const check = compiler.compile({ ...contact, ...($schema ? { $schema } : {}) });
      expect([$schema, check({ email: 'ana@example.com', since: '2026-11-21T15:00:00Z' })]).toEqual([
        $schema,
        [],
      ]);
      expect([$schema, check({ email: 'not an address', since: 'yesterday' })]).toEqual([
        $schema,
        [
          { path: ['email'], keyword: 'format', message: 'must match format "email"' },
          { path: ['since'], keyword: 'format', message: 'must match format "date-time"' },
        ],
      ]);
    }
  });

  it('reports every issue, with decoded paths and the missing property of `required`', () => {
    const check = createJsonSchemaCompiler().compile(contact);
    expect(check({ 'a/b': 'x' })).toEqual([
      {
        path: [],
        keyword: 'required',
        message: "must have required property 'email'",
        missingProperty: 'email',
      },
      { path: ['a/b'], keyword: 'type', message: 'must be integer' },
    ]);
    const nested = createJsonSchemaCompiler().compile({
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'string', format: 'uuid' } } },
    });
    expect(nested({ items: ['3b241101-e2bb-4255-8caf-4136c566a962', 'nope'] })).toEqual([
      { path: ['items', '1'], keyword: 'format', message: 'must match format "uuid"' },
    ]);
  });

  it('reads the dialect from $schema: draft-07 tuples and 2020-12 prefixItems', () => {
    expect(jsonSchemaDialect({ $schema: 'http://json-schema.org/draft-04/schema#' })).toBe('draft-07');
    expect(jsonSchemaDialect({ $schema: draft2020 })).toBe('2020-12');
    expect(jsonSchemaDialect({})).toBe('2020-12');
    const compiler = createJsonSchemaCompiler();
    const tuple07 = compiler.compile({ $schema: draft07, type: 'array', items: [{ type: 'string' }] });
    expect(tuple07([1])).toEqual([{ path: ['0'], keyword: 'type', message: 'must be string' }]);
    const tuple2020 = compiler.compile({ type: 'array', prefixItems: [{ type: 'string' }] });
    expect(tuple2020([1])).toEqual([{ path: ['0'], keyword: 'type', message: 'must be string' }]);
  });

  it('compiles two schemas that share an $id', () => {
    const compiler = createJsonSchemaCompiler();
    const first = compiler.compile({ $id: 'https://example.test/input', type: 'string' });
    const second = compiler.compile({ $id: 'https://example.test/input', type: 'number' });
    expect(first('x')).toEqual([]);
    expect(second(1)).toEqual([]);
  });

  it('ignores annotation keywords it does not know (non-strict)', () => {
    const check = createJsonSchemaCompiler().compile({ type: 'string', 'x-ui': 'textarea', examples: ['a'] });
    expect(check('a')).toEqual([]);
  });

  it('throws invalid_json_schema for a schema it cannot compile', () => {
    const compile = () => createJsonSchemaCompiler().compile({ type: 'no-such-type' });
    expect(compile).toThrow(PatchbayError);
    expect(compile).toThrow(expect.objectContaining({ code: 'invalid_json_schema' }));
    expect(compile).toThrow(/Not a JSON Schema that can be checked: .*type/);
  });
});
