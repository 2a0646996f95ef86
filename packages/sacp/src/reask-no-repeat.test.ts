import { createScriptedModel } from '@patchbay/turn/testing';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunAgentRequest } from './agent-turn.js';
import { defineChain } from './chain.js';

const sacp = (data: Record<string, unknown>, message: string) =>
  JSON.stringify({ thought: '', status: 'success', data, message });

const refund = { toolName: 'refund_order', input: { order: '42' } };

describe('re-asks run no tool: a write of the first attempt is not repeated', () => {
  it('on the AI SDK path, for a tool with execute and for one run through callTool', async () => {
    for (const through of ['execute', 'callTool'] as const) {
      // The counting service: every refund that reaches it.
      const refunds: unknown[] = [];
      const send = async (input: unknown) => {
        refunds.push(input);
        return { refunded: true };
      };
      const declared = { description: 'Refunds an order', inputSchema: z.object({ order: z.string() }) };
      const model = createScriptedModel([
        { toolCalls: [refund] },
        'I refunded order 42.',
        // The re-ask: the model sends the refund again, then replies after reading the refusal.
        { toolCalls: [refund] },
        sacp({ order: '42' }, 'Refunded order 42.'),
      ]);
      const chain = defineChain({
        start: 'clerk',
        nodes: {
          clerk: {
            model,
            system: 'You refund orders.',
            tools: {
              refund_order: through === 'execute' ? tool({ ...declared, execute: send }) : tool(declared),
            },
            ...(through === 'callTool' ? { callTool: (_name: string, input: unknown) => send(input) } : {}),
          },
        },
      });

      const result = await chain.run('Refund order 42.');

      expect(refunds).toEqual([{ order: '42' }]);
      expect(result.state).toBe('done');
      expect(result.trace[0]?.reasks).toBe(1);
      // The model read why its repeated call did not run.
      expect(JSON.stringify(model.prompts[3])).toContain('was not run');
    }
  });

  it('tells a runAgent hook it is a re-ask, and refuses its callTool there', async () => {
    const refunds: unknown[] = [];
    const requests: RunAgentRequest[] = [];
    const chain = defineChain({
      start: 'clerk',
      nodes: {
        clerk: {
          system: 'You refund orders.',
          callTool: async (_name, input) => {
            refunds.push(input);
            return { refunded: true };
          },
        },
      },
      // A careless hook: it calls the tool on every turn, re-asks included.
      runAgent: async (request) => {
        requests.push(request);
        const output = await request.callTool?.('refund_order', { order: '42' });
        return {
          text: requests.length === 1 ? 'Done.' : sacp({ output }, 'Refunded.'),
          toolOutputs: [],
        };
      },
    });

    const result = await chain.run('Refund order 42.');

    expect(requests.map((request) => request.reask)).toEqual([0, 1]);
    expect(refunds).toEqual([{ order: '42' }]);
    expect(result.reply.data.output).toMatchObject({ ok: false, error_type: 'conflict' });
  });
});
