import { errorTypes } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { protocolBlocks } from './prompt-blocks.js';
import { buildSystemPrompt } from './system-prompt.js';

describe('error_handling block (seed 000)', () => {
  it('tells the model to say what fixing a connector problem would enable (rule 4)', () => {
    const block = protocolBlocks.error_handling;
    const rule = block
      .split('\n- ')
      .find((line) => line.startsWith('With any of these four connector problems'));
    expect(rule).toBeDefined();
    expect(rule).toContain('what fixing it would enable');
    expect(rule).toContain('"would_enable"');
    // "these four" are the connector problems listed just before it, as seed 000 lists them.
    const before = block.slice(0, block.indexOf('With any of these four'));
    for (const type of [
      'connector_not_configured',
      'invalid_credentials',
      'permission_denied',
      'rate_limited',
    ]) {
      expect(before).toContain(`"${type}"`);
    }
    expect(buildSystemPrompt({ identity: 'You help.' })).toContain(rule);
  });
});

describe('error_handling block explains every error type', () => {
  it('names each of `errorTypes`, so a new type cannot reach a model unexplained', () => {
    const block = protocolBlocks.error_handling;
    expect(errorTypes.filter((type) => !block.includes(`"${type}"`))).toEqual([]);
  });

  it('tells the model not to retry a cancelled call, apart from a timed-out one', () => {
    const rule = protocolBlocks.error_handling.split('\n- ').find((line) => line.startsWith('"cancelled"'));
    expect(rule).toContain('Do not call it again unless');
    expect(rule).not.toContain('"timeout"');
  });
});
