import { describe, expect, it } from 'vitest';
import { defineChain } from '../chain.js';
import { compileCondition } from '../condition.js';
import type { SacpReply } from '../reply.js';
import type { CompiledEdge } from './compile.js';
import { chooseEdge } from './routing.js';

const reply = (status: SacpReply['status'], data: Record<string, unknown> = {}): SacpReply => ({
  thought: '',
  status,
  data,
  message: '',
});

const edge = (index: number, from: string, to: string, extra: Partial<CompiledEdge> = {}): CompiledEdge => ({
  index,
  from,
  to,
  ...extra,
});

describe('chooseEdge', () => {
  const position = { visits: 1, step: 1 };

  it('takes the first edge in definition order that leaves the node with a matching status', () => {
    const edges = [
      edge(0, 'other', 'x'),
      edge(1, 'a', 'onFailure', { statuses: new Set(['failure']) }),
      edge(2, 'a', 'first'),
      edge(3, 'a', 'second'),
    ];
    expect(chooseEdge(edges, 'a', reply('success'), position)).toEqual({
      edge: edges[2],
      conditionErrors: [],
    });
    expect(chooseEdge(edges, 'a', reply('failure'), position).edge?.to).toBe('onFailure');
    expect(chooseEdge(edges, 'b', reply('success'), position)).toEqual({
      edge: undefined,
      conditionErrors: [],
    });
  });

  it('gives the condition the reply, the visits and the step', () => {
    const edges = [
      edge(0, 'a', 'late', {
        when: 'visits >= 2 and step == 5 and data.score > 0.5',
        condition: compileCondition('visits >= 2 and step == 5 and data.score > 0.5'),
      }),
    ];
    const scored = reply('success', { score: 0.9 });
    expect(chooseEdge(edges, 'a', scored, { visits: 2, step: 5 }).edge?.to).toBe('late');
    expect(chooseEdge(edges, 'a', scored, { visits: 1, step: 5 }).edge).toBeUndefined();
    expect(chooseEdge(edges, 'a', scored, { visits: 2, step: 4 }).edge).toBeUndefined();
  });

  it('does not take an edge whose condition fails at run time, reports it, and tries the next', () => {
    const when = 'data.score + 1 > 2';
    const edges = [
      edge(0, 'a', 'scored', { when, condition: compileCondition(when) }),
      edge(1, 'a', 'fallback'),
    ];
    const route = chooseEdge(edges, 'a', reply('success', { score: 'high' }), position);
    expect(route.edge?.to).toBe('fallback');
    expect(route.conditionErrors).toEqual([`edge 0 (${when}): Expected a number, but got a text instead.`]);
  });
});

describe('defineChain: a condition that fails at run time', () => {
  it('is recorded on the trace entry and the run goes on down the next edge that matches', async () => {
    const ran: string[] = [];
    const chain = defineChain({
      nodes: {
        grade: () => reply('success', { score: 'high' }),
        publish: () => {
          ran.push('publish');
          return reply('completed');
        },
        review: () => {
          ran.push('review');
          return reply('completed');
        },
      },
      edges: [
        { from: 'grade', to: 'publish', when: 'data.score * 2 > 1' },
        { from: 'grade', to: 'review' },
      ],
      start: 'grade',
    });
    const result = await chain.run('x');
    expect(result.state).toBe('done');
    expect(ran).toEqual(['review']);
    expect(result.trace[0]).toMatchObject({
      edge: { index: 1, to: 'review' },
      conditionErrors: ['edge 0 (data.score * 2 > 1): Expected a number, but got a text instead.'],
    });
    expect(result.trace[1]?.conditionErrors).toBeUndefined();
  });
});
