// The gate's argument check itself, so this test sees what a tool call with these arguments would get.
import { JsonSchemaValidator } from '@patchbay/orchestrator/internal';
import { describe, expect, it } from 'vitest';
import { compileDataSchema } from './data-schema.js';
import { parseSacp } from './parse-sacp.js';

const contact = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    since: { type: 'string', format: 'date-time' },
  },
  required: ['email'],
};
const badFormats = { email: 'not an address', since: 'last tuesday' };

describe('JSON Schema data schemas', () => {
  it('checks formats (email, date-time) in both dialects', () => {
    for (const $schema of [undefined, 'http://json-schema.org/draft-07/schema#']) {
      const validator = compileDataSchema({ ...contact, ...($schema ? { $schema } : {}) });
      expect(validator.validate({ email: 'ana@example.com', since: '2026-11-21T15:00:00Z' })).toEqual([]);
      expect(validator.validate(badFormats)).toEqual([
        { path: 'data.email', message: 'must match format "email"' },
        { path: 'data.since', message: 'must match format "date-time"' },
      ]);
    }
  });

  it('makes a reply whose data breaks a format not ok, so the chain re-asks', () => {
    const text = JSON.stringify({ thought: '', status: 'success', data: badFormats, message: 'Found it.' });
    const result = parseSacp(text, { dataSchema: contact });
    expect(result.ok).toBe(false);
    expect(result.issues?.map((issue) => issue.message)).toEqual([
      'must match format "email"',
      'must match format "date-time"',
    ]);
  });

  it("says what the orchestrator's argument check says for the same schema and value", () => {
    const gate = new JsonSchemaValidator().validate('contact', contact, badFormats, { tool: 'contact' });
    if (gate.ok) throw new Error('the orchestrator accepted invalid arguments');
    const gateIssues = (gate.envelope as { issues?: { path: string; message: string }[] }).issues ?? [];
    const sacpIssues = compileDataSchema(contact).validate(badFormats);
    expect(sacpIssues).toEqual(gateIssues.map((issue) => ({ ...issue, path: `data.${issue.path}` })));
    expect(gateIssues).toHaveLength(2);
  });

  it('lists a missing required key by its path', () => {
    expect(compileDataSchema(contact).validate({})).toEqual([
      { path: 'data.email', message: "must have required property 'email'" },
    ]);
  });
});
