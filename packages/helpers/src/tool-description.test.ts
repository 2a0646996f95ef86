import { describe, expect, it } from 'vitest';
import { toolDescriptionForModel } from './tool-description.js';

const description = 'Finds tickets by text.';

describe('toolDescriptionForModel (seed 003: examples and category)', () => {
  it('shows category and examples after the description', () => {
    expect(
      toolDescriptionForModel({
        description,
        examples: ['Find T-1', 'What is T-2 about?'],
        category: 'tickets',
      }),
    ).toBe(`${description}\nCategory: tickets\nExamples:\n- Find T-1\n- What is T-2 about?`);
  });

  it('leaves a description without them unchanged', () => {
    expect(toolDescriptionForModel({ description })).toBe(description);
    expect(toolDescriptionForModel({ description, examples: [] })).toBe(description);
  });
});
