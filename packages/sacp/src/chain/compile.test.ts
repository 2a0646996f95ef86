import { describe, expect, it } from 'vitest';
import { defineChain } from '../chain.js';
import type { ChainNode } from '../nodes.js';
import type { SacpReply, SacpStatus } from '../reply.js';

const ok = (): SacpReply => ({ thought: '', status: 'success', data: {}, message: '' });

describe('defineChain: checks when the chain is defined', () => {
  it('refuses a step limit that is not a positive integer', () => {
    for (const maxSteps of [0, -1, 1.5, Number.NaN]) {
      expect(() => defineChain({ nodes: { a: ok }, start: 'a', maxSteps })).toThrow(
        expect.objectContaining({
          code: 'sacp_invalid_chain',
          message: 'maxSteps must be a positive integer.',
        }),
      );
    }
    expect(defineChain({ nodes: { a: ok }, start: 'a', maxSteps: 1 }).id).toBeUndefined();
  });

  it('refuses an edge status no reply has', () => {
    expect(() =>
      defineChain({
        nodes: { a: ok, b: ok },
        edges: [{ from: 'a', to: 'b', status: ['success', 'needs_input' as SacpStatus] }],
        start: 'a',
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'sacp_invalid_chain',
        message: 'Edge 0 has unknown status "needs_input".',
      }),
    );
  });

  it('refuses node ids with dots, spaces or nothing, and a node that is neither agent nor function', () => {
    for (const id of ['a.b', 'a b', '', 'answer']) {
      expect(() => defineChain({ nodes: { [id]: ok }, start: id })).toThrow(/is not allowed/);
    }
    expect(() => defineChain({ nodes: { a: { input: 'x' } as unknown as ChainNode }, start: 'a' })).toThrow(
      'Node "a" must be an agent ({ model, system }), a function node ({ run }) or a function.',
    );
  });
});
