import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { defineChain } from './chain.js';
import type { SacpReply } from './reply.js';

const secretThought = 'THOUGHT-MARKER: I guessed the addresses and the user should not be trusted';

const researcherReply = JSON.stringify({
  thought: secretThought,
  status: 'success',
  data: { guesses: ['jdoe@acme.test'] },
  message: 'Found guesses.',
});

const done = (message: string): SacpReply => ({ thought: '', status: 'completed', data: {}, message });

/** Counts how often the first agent's thought reaches anything the next nodes receive. */
function occurrences(values: unknown[]): number {
  return values.filter((value) => JSON.stringify(value ?? null).includes('THOUGHT-MARKER')).length;
}

describe('seed 004: the next agent ignores `thought`', () => {
  it('hands no thought to the next nodes, whatever template or context they read the reply through', async () => {
    const seen: unknown[] = [];
    const nextModel = createScriptedModel([JSON.stringify(done('Model node done.'))]);
    const chain = defineChain({
      start: 'researcher',
      nodes: {
        researcher: { model: createScriptedModel([researcherReply]), system: 'You research.' },
        // Default input: the previous reply as a whole.
        byDefault: {
          run: async (input, context) => {
            seen.push(input, context.outputs);
            return { ...done('ok'), status: 'success' };
          },
        },
        // The reply by name, whole, embedded in text and inside an object template.
        byTemplate: {
          input: { whole: '{{researcher}}', embedded: 'Previous: {{researcher}}', list: ['{{researcher}}'] },
          run: async (input, context) => {
            seen.push(input, context.outputs);
            return { ...done('ok'), status: 'success' };
          },
        },
        // A model node whose default input is the previous function reply, and which names the researcher too.
        modelNode: {
          model: nextModel,
          system: 'You check.',
          input: 'Check {{researcher}} and {{byTemplate}}',
        },
      },
      edges: [
        { from: 'researcher', to: 'byDefault' },
        { from: 'byDefault', to: 'byTemplate' },
        { from: 'byTemplate', to: 'modelNode' },
      ],
    });

    const result = await chain.run('Find the CEO email.');

    expect(result.state).toBe('done');
    expect(nextModel.prompts).toHaveLength(1);
    seen.push(nextModel.prompts[0]);
    // Five places a next node could have read the thought from; none carries it.
    expect(seen).toHaveLength(5);
    expect(occurrences(seen)).toBe(0);
    // The data and message still go on, and people still see the thought in the run's outputs and trace.
    expect(JSON.stringify(seen[0])).toContain('jdoe@acme.test');
    expect(result.outputs.researcher?.thought).toBe(secretThought);
    expect(result.trace[0]?.reply.thought).toBe(secretThought);
  });

  it('passes the thought only when a template names it explicitly', async () => {
    const seen: unknown[] = [];
    const chain = defineChain({
      start: 'researcher',
      nodes: {
        researcher: { model: createScriptedModel([researcherReply]), system: 'You research.' },
        explainer: {
          input: 'Why: {{researcher.thought}}',
          run: async (input) => {
            seen.push(input);
            return done('ok');
          },
        },
      },
      edges: [{ from: 'researcher', to: 'explainer' }],
    });
    await chain.run('Find the CEO email.');
    expect(occurrences(seen)).toBe(1);
  });
});
