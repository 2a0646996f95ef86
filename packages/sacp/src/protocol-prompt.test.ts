import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withSacpProtocol } from './protocol-prompt.js';
import { sacpStatuses } from './reply.js';

describe('withSacpProtocol', () => {
  it('appends the protocol block after the agent prompt and names every status', () => {
    const prompt = withSacpProtocol('You triage support tickets.');
    expect(prompt.startsWith('You triage support tickets.\n\n## Reply format (SACP)')).toBe(true);
    for (const status of sacpStatuses) expect(prompt).toContain(`"${status}"`);
    for (const field of ['thought', 'status', 'data', 'message', 'next_step_hint'])
      expect(prompt).toContain(`"${field}"`);
  });

  it('lists data keys with types, required flags and descriptions from a zod schema', () => {
    const prompt = withSacpProtocol('Extract.', {
      dataSchema: z.object({
        order_id: z.string().describe('The order number as printed on the invoice.'),
        items: z.array(z.string()).optional(),
        priority: z.enum(['low', 'high']),
      }),
    });
    expect(prompt).toContain('- "order_id" (string, required): The order number as printed on the invoice.');
    expect(prompt).toContain('- "items" (array of string, optional)');
    expect(prompt).toContain('- "priority" ("low" | "high", required)');
    expect(prompt).toContain('"data":{"order_id":"<string>"');
  });

  it('lists data keys from a JSON Schema', () => {
    const prompt = withSacpProtocol('Score.', {
      dataSchema: {
        type: 'object',
        properties: { score: { type: 'number', description: 'Confidence, 0 to 1.' } },
        required: ['score'],
      },
    });
    expect(prompt).toContain('- "score" (number, required): Confidence, 0 to 1.');
  });

  it('is deterministic and byte-identical for equal inputs', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(withSacpProtocol('x', { dataSchema: schema })).toBe(
      withSacpProtocol('x', { dataSchema: { ...schema } }),
    );
    expect(withSacpProtocol('x  \n')).toBe(withSacpProtocol('x'));
  });

  it('gives only the block for an empty agent prompt', () => {
    expect(withSacpProtocol('').startsWith('## Reply format (SACP)')).toBe(true);
  });
});
