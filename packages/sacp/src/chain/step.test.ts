import { PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { createMemoryAuditLog } from '../audit-log.js';
import { defineChain } from '../chain.js';
import type { Guardrail } from '../guardrails.js';
import type { SacpReply } from '../reply.js';

const reply = (status: SacpReply['status'], message = ''): SacpReply => ({
  thought: '',
  status,
  data: {},
  message,
});

/** A guardrail that lets everything through and counts the replies it saw. */
function countingGuardrail(): Guardrail & { seen: SacpReply[] } {
  const seen: SacpReply[] = [];
  return { name: 'counting', seen, apply: (checked) => void seen.push(checked) };
}

describe('defineChain: a step that fails', () => {
  it('shows a sacp_* error a node throws as it is, in the reply and as the trace entry error', async () => {
    const chain = defineChain({
      nodes: {
        misconfigured: () => {
          throw new PatchbayError('sacp_invalid_chain', 'Node "misconfigured" declares tools of its own.');
        },
      },
      start: 'misconfigured',
    });
    const result = await chain.run('x');
    expect(result.state).toBe('failed');
    expect(result.reply.message).toBe(
      'Node "misconfigured" failed: Node "misconfigured" declares tools of its own.',
    );
    expect(result.trace[0]?.error).toEqual({
      code: 'sacp_invalid_chain',
      message: 'Node "misconfigured" declares tools of its own.',
    });
  });

  it('records no trace entry error for any other thrown error, and shows it only as its envelope', async () => {
    const thrown = [
      new PatchbayError('upstream_error', 'The upstream said no.'),
      new Error('connection to db-7.internal refused'),
    ];
    const results = [];
    for (const error of thrown) {
      const chain = defineChain({
        nodes: {
          broken: () => {
            throw error;
          },
        },
        start: 'broken',
      });
      results.push(await chain.run('x'));
    }
    expect(results.map((result) => result.trace[0]?.error)).toEqual([undefined, undefined]);
    expect(results[0]?.reply.message).toBe('Node "broken" failed: The upstream said no.');
    expect(results[0]?.reply.data.error).toMatchObject({ ok: false, error_type: 'upstream_error' });
    expect(results[1]?.reply.message).toMatch(/^Node "broken" failed: /);
    expect(results[1]?.reply.message).not.toContain('db-7.internal');
  });

  it('ends the run on a template it cannot render: counted and audited, but no node run and no guardrail', async () => {
    const audit = createMemoryAuditLog();
    const guardrail = countingGuardrail();
    let runs = 0;
    const chain = defineChain({
      nodes: {
        first: () => reply('success', 'done'),
        second: {
          input: '{{first.data.missing}}',
          run: () => {
            runs += 1;
            return reply('completed');
          },
        },
      },
      edges: [{ from: 'first', to: 'second' }],
      start: 'first',
      guardrails: [guardrail],
      audit,
    });
    const result = await chain.run('x');
    expect(result.state).toBe('failed');
    expect(runs).toBe(0);
    expect(guardrail.seen).toHaveLength(1);
    expect(result.steps).toBe(2);
    expect(result.trace[1]).toMatchObject({
      node: 'second',
      input: null,
      ok: false,
      guardrails: [],
      edge: null,
      error: { code: 'sacp_missing_template_path' },
    });
    expect(result.outputs.second).toMatchObject({
      status: 'failure',
      data: { error_code: 'sacp_missing_template_path' },
    });
    expect(audit.records.map((record) => [record.node, record.ok])).toEqual([
      ['first', true],
      ['second', false],
    ]);
  });
});
