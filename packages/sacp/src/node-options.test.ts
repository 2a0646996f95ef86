import { PatchbayError } from '@patchbay/envelope';
import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ChainDefinition, defineChain } from './chain.js';
import { agentNodeOptions, edgeOptions, functionNodeOptions } from './node-options.js';

const run = async () => ({ thought: '', status: 'completed' as const, data: {}, message: 'ok' });

function definitionError(definition: ChainDefinition): PatchbayError {
  try {
    defineChain(definition);
  } catch (error) {
    if (PatchbayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('defineChain accepted the definition');
}

describe('defineChain: unknown node and edge options', () => {
  it('refuses a misspelt agent option, naming it and the option meant', () => {
    const model = createScriptedModel([]);
    const error = definitionError({
      start: 'a',
      // A cast, as a JavaScript caller or a config file would pass it: the type checker is not there.
      nodes: { a: { model, system: 'x', dataSchem: z.object({ n: z.number() }) } as never },
    });
    expect(error.code).toBe('sacp_invalid_chain');
    expect(error.message).toContain('Node "a" has an unknown option "dataSchem"');
    expect(error.message).toContain('did you mean "dataSchema"?');
  });

  it('refuses an unknown option on a function node and on an edge', () => {
    expect(
      definitionError({ start: 'a', nodes: { a: { run, inputs: '{{input}}' } as never } }).message,
    ).toContain('did you mean "input"?');
    const edge = definitionError({
      start: 'a',
      nodes: { a: run, b: run },
      edges: [{ from: 'a', to: 'b', condition: 'data.x > 1' } as never],
    });
    expect(edge.message).toContain('Edge 0 has an unknown option "condition"');
  });

  it('accepts every documented option', () => {
    const model = createScriptedModel([]);
    const agent = Object.fromEntries(agentNodeOptions.map((key) => [key, undefined]));
    expect(() =>
      defineChain({
        start: 'a',
        nodes: {
          a: { ...agent, kind: 'agent', model, system: 'x' },
          b: { ...Object.fromEntries(functionNodeOptions.map((key) => [key, undefined])), run },
          c: run,
        },
        edges: [{ ...Object.fromEntries(edgeOptions.map((key) => [key, undefined])), from: 'a', to: 'b' }],
      }),
    ).not.toThrow();
  });
});
