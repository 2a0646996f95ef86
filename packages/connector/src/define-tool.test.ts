import { success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';

const base = {
  name: 'demo_echo',
  description: 'Echoes the text back to the caller.',
  input: z.object({ text: z.string().describe('Text to echo').meta({ question: 'What should I echo?' }) }),
  effect: 'read' as const,
  execute: async (input: { text: string }) => success(input.text),
};

describe('defineTool', () => {
  it('derives JSON Schema and questions', () => {
    const tool = defineTool(base);
    expect(tool.inputJsonSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'Text to echo' } },
      required: ['text'],
    });
    expect(tool.inputJsonSchema).not.toHaveProperty('$schema');
    expect(tool.questions).toEqual({ text: 'What should I echo?' });
    expect(tool.requiredScopes).toEqual([]);
    expect(tool.requires).toEqual([]);
  });

  it('names the undescribed field', () => {
    expect(() =>
      defineTool({
        ...base,
        input: z.object({
          text: z.string().describe('ok'),
          to: z.object({ id: z.string() }).describe('Target'),
        }),
      }),
    ).toThrow(/input\.to\.id: every input field needs \.describe\(\)/);
  });

  it('names a bad effect', () => {
    expect(() => defineTool({ ...base, effect: 'delete' as never })).toThrow(/tool "demo_echo": effect:/);
  });

  it('rejects a name without a connector prefix', () => {
    expect(() => defineTool({ ...base, name: 'echo' })).toThrow(/name: must be snake_case and prefixed/);
  });

  it('rejects a non-object input schema', () => {
    expect(() => defineTool({ ...base, input: z.string().describe('text') as never })).toThrow(
      /input: must be a z\.object/,
    );
  });
});

describe('tool examples and category (seed 003)', () => {
  it('keeps them on the tool (@patchbay/helpers shows them to the model)', () => {
    const tool = defineTool({ ...base, examples: ['Find T-1', 'What is T-2 about?'], category: 'tickets' });
    expect(tool.examples).toEqual(['Find T-1', 'What is T-2 about?']);
    expect(tool.category).toBe('tickets');
  });

  it('refuses an empty example and more than ten', () => {
    expect(() => defineTool({ ...base, examples: [' '] })).toThrow(/examples\.0: must not be empty/);
    expect(() => defineTool({ ...base, examples: Array.from({ length: 11 }, (_, i) => `e${i}`) })).toThrow(
      /at most 10 examples/,
    );
  });
});
