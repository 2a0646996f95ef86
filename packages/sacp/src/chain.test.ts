import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PatchbayError } from '@patchbay/envelope';
import { createScriptedModel, type ScriptedModel } from '@patchbay/turn/testing';
import { tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJsonlAuditLog, createMemoryAuditLog } from './audit-log.js';
import { defineChain } from './chain.js';
import { interventionGuardrail, redactionGuardrail } from './guardrails.js';
import type { SacpReply } from './reply.js';

/** Serialises an SACP reply the way a well-behaved model would. */
function replyText(reply: { thought?: string; status: string; data?: unknown; message?: string }): string {
  return JSON.stringify({
    thought: reply.thought ?? '',
    status: reply.status,
    data: reply.data ?? {},
    message: reply.message ?? '',
  });
}

/** Text of every prompt message the model received on call `index`, for assertions. */
const promptText = (model: ScriptedModel, index: number): string =>
  JSON.stringify(model.prompts[index] ?? []);

const reply = (status: SacpReply['status'], data: Record<string, unknown> = {}, message = ''): SacpReply => ({
  thought: '',
  status,
  data,
  message,
});

describe('defineChain: routing', () => {
  it('runs a model node then a function node on the success path, mapping data through a template', async () => {
    const researcher = createScriptedModel([
      'Here you go:\n```json\n' +
        replyText({
          status: 'success',
          data: { ceo: 'John Doe', guesses: ['john.doe@acme.test', 'jdoe@acme.test'] },
          message: 'Found the CEO.',
        }) +
        '\n```',
    ]);
    const seen: unknown[] = [];
    const chain = defineChain({
      nodes: {
        researcher: { model: researcher, system: 'You research companies.' },
        validator: {
          input: '{{researcher.data.guesses}}',
          run: async (input) => {
            seen.push(input);
            return reply('success', { valid: 'jdoe@acme.test' }, 'One address is valid.');
          },
        },
      },
      edges: [{ from: 'researcher', to: 'validator', status: 'success' }],
      start: 'researcher',
    });

    const result = await chain.run('Find the email of the CEO of Acme.');

    expect(result.state).toBe('done');
    expect(seen).toEqual([['john.doe@acme.test', 'jdoe@acme.test']]);
    expect(result.reply.data).toEqual({ valid: 'jdoe@acme.test' });
    expect(result.trace.map((entry) => [entry.node, entry.edge?.to ?? null])).toEqual([
      ['researcher', 'validator'],
      ['validator', null],
    ]);
    expect(result.trace[0]?.repairs).toContain('extracted_from_fence');
    expect(result.trace[0]?.input).toBe('Find the email of the CEO of Acme.');
    // The model saw the protocol block and the user's input.
    expect(promptText(researcher, 0)).toContain('Reply format (SACP)');
    expect(promptText(researcher, 0)).toContain('Find the email of the CEO of Acme.');
  });

  it("routes on seed 004's response.* conditions and refuses one a reply cannot satisfy when defined", async () => {
    const nodes = {
      scorer: { run: async () => reply('success', { score: 0.9 }, 'Scored.') },
      confident: { run: async () => reply('completed', {}, 'High confidence.') },
      unsure: { run: async () => reply('completed', {}, 'Low confidence.') },
    };
    const chain = defineChain({
      nodes,
      edges: [
        {
          from: 'scorer',
          to: 'confident',
          when: 'response.status == "success" and response.data.score > 0.8',
        },
        { from: 'scorer', to: 'unsure', when: 'response.status == "success"' },
      ],
      start: 'scorer',
    });
    const result = await chain.run('rate it');
    expect(result.trace.map((entry) => entry.node)).toEqual(['scorer', 'confident']);

    // Once accepted, never matched, and the chain ended `done` after the first node with no error.
    expect(() =>
      defineChain({
        nodes,
        edges: [{ from: 'scorer', to: 'confident', when: 'response.score > 0.8' }],
        start: 'scorer',
      }),
    ).toThrow(expect.objectContaining({ code: 'sacp_invalid_condition' }));
  });

  it('routes a failure to an error handler that receives the failing message', async () => {
    const chain = defineChain({
      nodes: {
        fetcher: {
          model: createScriptedModel([replyText({ status: 'failure', message: 'The API returned 503.' })]),
          system: 'Fetch.',
        },
        report: { model: createScriptedModel([replyText({ status: 'success' })]), system: 'Report.' },
        handler: {
          input: 'Step failed: {{fetcher.message}}',
          run: (input) => reply('completed', { handled: input }, 'Handled.'),
        },
      },
      edges: [
        { from: 'fetcher', to: 'report', status: 'success' },
        { from: 'fetcher', to: 'handler', status: 'failure' },
      ],
      start: 'fetcher',
    });

    const result = await chain.run('go');

    expect(result.state).toBe('done');
    expect(result.trace.map((entry) => entry.node)).toEqual(['fetcher', 'handler']);
    expect(result.reply.data.handled).toBe('Step failed: The API returned 503.');
  });

  it('ends in failed state when a failure has no edge to handle it', async () => {
    const chain = defineChain({
      nodes: { only: () => reply('failure', {}, 'Disk full.') },
      start: 'only',
    });
    const result = await chain.run(null);
    expect(result.state).toBe('failed');
    if (result.state !== 'failed') return;
    expect(result.error.code).toBe('sacp_unhandled_failure');
    expect(result.error.message).toContain('Disk full.');
  });

  it('follows a data threshold condition written in the expression language', async () => {
    const build = (score: number) =>
      defineChain({
        nodes: {
          classify: () => reply('success', { score, label: 'invoice' }),
          high: () => reply('completed', {}, 'auto-approved'),
          low: () => reply('completed', {}, 'sent to review'),
        },
        edges: [
          { from: 'classify', to: 'high', when: 'status == "success" and data.score > 0.8' },
          { from: 'classify', to: 'low' },
        ],
        start: 'classify',
      });

    expect((await build(0.93).run('doc')).reply.message).toBe('auto-approved');
    expect((await build(0.42).run('doc')).reply.message).toBe('sent to review');
    const traced = await build(0.93).run('doc');
    expect(traced.trace[0]?.edge).toEqual({
      index: 0,
      to: 'high',
      when: 'status == "success" and data.score > 0.8',
    });
  });

  it('maps nested values, array indexes, the run input and whole replies through object templates', async () => {
    let received: unknown;
    const chain = defineChain({
      nodes: {
        extract: () =>
          reply('success', { people: [{ name: 'Alice' }, { name: 'Bob' }], count: 2 }, 'Two people.'),
        greet: {
          input: {
            first: '{{extract.data.people[0].name}}',
            second: '{{extract.data.people.1.name}}',
            summary: '{{extract.message}} ({{extract.data.count}} found) for {{input}}',
            count: '{{extract.data.count}}',
          },
          run: (input) => {
            received = input;
            return reply('completed');
          },
        },
      },
      edges: [{ from: 'extract', to: 'greet' }],
      start: 'extract',
    });

    await chain.run('team page');

    expect(received).toEqual({
      first: 'Alice',
      second: 'Bob',
      summary: 'Two people. (2 found) for team page',
      count: 2,
    });
  });

  it('fails with an error naming the node and the path when a template path is missing', async () => {
    const chain = defineChain({
      nodes: {
        extract: () => reply('success', { names: ['Alice'] }),
        use: { input: '{{extract.data.emails}}', run: () => reply('completed') },
      },
      edges: [{ from: 'extract', to: 'use' }],
      start: 'extract',
    });

    const result = await chain.run('x');

    expect(result.state).toBe('failed');
    if (result.state !== 'failed') return;
    expect(result.error.code).toBe('sacp_missing_template_path');
    expect(result.error.message).toContain('Node "use"');
    expect(result.error.message).toContain('extract.data.emails');
    expect(result.reply.status).toBe('failure');
    expect(result.trace.at(-1)?.error?.code).toBe('sacp_missing_template_path');
  });
});

describe('defineChain: pause, resume and cycles', () => {
  it('pauses on clarification_needed and resumes with the answer available as {{answer}}', async () => {
    const booking = createScriptedModel([
      replyText({ status: 'clarification_needed', message: 'Which day should I book?' }),
      replyText({ status: 'success', data: { day: 'Tuesday' }, message: 'Booked Tuesday.' }),
    ]);
    let confirmInput: unknown;
    const chain = defineChain({
      id: 'booking',
      nodes: {
        book: { model: booking, system: 'You book meetings.' },
        confirm: {
          input: 'Confirm {{book.data.day}} (user said: {{answer}})',
          run: (input) => {
            confirmInput = input;
            return reply('completed', {}, 'Confirmed.');
          },
        },
      },
      edges: [{ from: 'book', to: 'confirm', status: 'success' }],
      start: 'book',
    });

    const paused = await chain.run('Book a meeting with Ana.');
    expect(paused.state).toBe('paused');
    if (paused.state !== 'paused') return;
    expect(paused.question).toBe('Which day should I book?');
    expect(paused.node).toBe('book');

    // The token survives a round trip through storage as a plain string.
    const token = JSON.parse(JSON.stringify(paused.resumeToken)) as string;
    const resumed = await chain.resume(token, 'Tuesday please');

    expect(resumed.state).toBe('done');
    expect(resumed.correlationId).toBe(paused.correlationId);
    expect(confirmInput).toBe('Confirm Tuesday (user said: Tuesday please)');
    expect(promptText(booking, 1)).toContain('Tuesday please');
    expect(promptText(booking, 1)).toContain('Which day should I book?');
    expect(resumed.trace.map((entry) => [entry.node, entry.resumed ?? false])).toEqual([
      ['book', false],
      ['book', true],
      ['confirm', false],
    ]);
  });

  it('refuses a checkpoint from another chain', async () => {
    const asking = defineChain({
      id: 'a',
      nodes: { ask: () => reply('clarification_needed', {}, 'Which?') },
      start: 'ask',
    });
    const other = defineChain({ id: 'b', nodes: { ask: () => reply('success') }, start: 'ask' });
    const paused = await asking.run('x');
    if (paused.state !== 'paused') throw new Error('expected a pause');
    await expect(other.resume(paused.checkpoint, 'this')).rejects.toMatchObject({
      code: 'sacp_invalid_checkpoint',
    });
    await expect(asking.resume('not-a-token', 'x')).rejects.toMatchObject({
      code: 'sacp_invalid_resume_token',
    });
  });

  it('stops a cycle at the step limit with a failure naming the limit', async () => {
    const chain = defineChain({
      nodes: {
        draft: () => reply('success', { version: 1 }),
        review: () => reply('success', { approved: false }),
      },
      edges: [
        { from: 'draft', to: 'review' },
        { from: 'review', to: 'draft', when: 'not data.approved' },
      ],
      start: 'draft',
      maxSteps: 5,
    });

    const result = await chain.run('write it');

    expect(result.state).toBe('failed');
    if (result.state !== 'failed') return;
    expect(result.error.code).toBe('sacp_step_limit');
    expect(result.error.message).toContain('maxSteps = 5');
    expect(result.reply.status).toBe('failure');
    expect(result.trace).toHaveLength(5);
  });

  it('lets a cycle end itself with a visits condition', async () => {
    const chain = defineChain({
      nodes: {
        attempt: () => reply('failure', {}, 'flaky'),
        giveUp: () => reply('completed', {}, 'gave up'),
      },
      edges: [
        { from: 'attempt', to: 'attempt', status: 'failure', when: 'visits < 3' },
        { from: 'attempt', to: 'giveUp', status: 'failure' },
      ],
      start: 'attempt',
    });
    const result = await chain.run('x');
    expect(result.state).toBe('done');
    expect(result.trace.map((entry) => entry.node)).toEqual(['attempt', 'attempt', 'attempt', 'giveUp']);
  });
});

describe('defineChain: agent nodes', () => {
  const scoreSchema = z.object({ score: z.number().describe('Confidence between 0 and 1.') });

  it('re-asks once when the data breaks the schema, and accepts the corrected reply', async () => {
    const model = createScriptedModel([
      replyText({ status: 'success', data: { score: 'high' }, message: 'Scored.' }),
      replyText({ status: 'success', data: { score: 0.9 }, message: 'Scored.' }),
    ]);
    const chain = defineChain({
      nodes: { scorer: { model, system: 'Score it.', dataSchema: scoreSchema } },
      start: 'scorer',
    });

    const result = await chain.run('text');

    expect(result.state).toBe('done');
    expect(result.reply.data).toEqual({ score: 0.9 });
    expect(result.trace[0]?.reasks).toBe(1);
    expect(model.calls).toHaveLength(2);
    expect(promptText(model, 1)).toContain('data.score');
    expect(promptText(model, 0)).toContain('Confidence between 0 and 1.');
  });

  it('gives a failure reply listing the issues when re-asks run out', async () => {
    const model = createScriptedModel([
      replyText({ status: 'success', data: { score: 'high' } }),
      replyText({ status: 'success', data: { score: 'still high' } }),
    ]);
    const chain = defineChain({
      nodes: {
        scorer: { model, system: 'Score it.', dataSchema: scoreSchema },
        fallback: (input) => reply('completed', { saw: input }),
      },
      edges: [{ from: 'scorer', to: 'fallback', status: 'failure' }],
      start: 'scorer',
    });

    const result = await chain.run('text');

    expect(model.calls).toHaveLength(2);
    const scored = result.outputs.scorer;
    expect(scored?.status).toBe('failure');
    expect(scored?.data.schema_issues).toEqual([expect.stringContaining('data.score')]);
    expect(scored?.data.rejected_data).toEqual({ score: 'still high' });
    expect(result.trace[0]?.ok).toBe(false);
  });

  it('runs tools through callTool, then takes the final SACP reply and carries tool outputs', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'London' } }] },
      replyText({ status: 'success', data: { city: 'London', temp: 15 }, message: '15°C in London.' }),
    ]);
    const calls: Array<[string, unknown]> = [];
    const chain = defineChain({
      nodes: {
        weather: {
          model,
          system: 'Weather agent.',
          tools: {
            get_weather: tool({
              description: 'Current weather',
              inputSchema: z.object({ city: z.string() }),
            }),
          },
          callTool: async (name, args) => {
            calls.push([name, args]);
            return { temp_c: 15 };
          },
          carryToolOutputs: true,
        },
      },
      start: 'weather',
    });

    const result = await chain.run('Weather in London?');

    expect(calls).toEqual([['get_weather', { city: 'London' }]]);
    expect(result.reply.data.tool_outputs).toEqual([
      { tool_name: 'get_weather', input: { city: 'London' }, output: { temp_c: 15 } },
    ]);
    expect(result.reply.data.temp).toBe(15);
    // The tool result went back to the model before its final reply.
    expect(promptText(model, 1)).toContain('temp_c');
  });

  it('demands the final reply without tools when the tool step budget is used up', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search', input: { q: 'a' } }] },
      replyText({ status: 'success', data: { hits: 1 }, message: 'Done.' }),
    ]);
    const chain = defineChain({
      nodes: {
        searcher: {
          model,
          system: 'Search.',
          maxToolSteps: 1,
          tools: {
            search: tool({
              description: 'Search',
              inputSchema: z.object({ q: z.string() }),
              execute: async () => ['hit'],
            }),
          },
        },
      },
      start: 'searcher',
    });

    const result = await chain.run('find a');

    expect(result.reply.data).toEqual({ hits: 1 });
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]?.toolChoice).toEqual({ type: 'none' });
    expect(result.reply.data.tool_outputs).toBeUndefined();
  });

  it('uses the runAgent hook instead of calling a model when one is given', async () => {
    const requests: string[] = [];
    const chain = defineChain({
      nodes: { helper: { system: 'Help.' } },
      start: 'helper',
      runAgent: async (request) => {
        requests.push(request.system);
        return { text: replyText({ status: 'completed', message: 'from hook' }) };
      },
    });
    const result = await chain.run('hi');
    expect(result.reply.message).toBe('from hook');
    expect(requests[0]).toContain('Reply format (SACP)');
  });

  it('turns an unreadable reply into the fallback failure after a re-ask', async () => {
    const model = createScriptedModel(['I think the answer is 42.', 'Still just prose.']);
    const chain = defineChain({ nodes: { a: { model, system: 's' } }, start: 'a' });
    const result = await chain.run('q');
    expect(result.state).toBe('failed');
    expect(result.reply.data.raw_output).toBe('Still just prose.');
    expect(result.trace[0]?.reasks).toBe(1);
  });

  it('turns a thrown error into a failure reply carrying an envelope, with no secret in the message', async () => {
    const chain = defineChain({
      nodes: {
        boom: () => {
          throw new Error('request failed with token ghp_abcdefghijklmnopqrstuvwxyz123456');
        },
      },
      start: 'boom',
    });
    const result = await chain.run('x');
    expect(result.state).toBe('failed');
    expect(result.reply.status).toBe('failure');
    expect(JSON.stringify(result.reply)).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz123456');
    expect(result.reply.data.error).toMatchObject({ ok: false });
  });
});

describe('defineChain: guardrails and audit', () => {
  let directory: string | undefined;
  afterEach(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
    directory = undefined;
  });

  it('redacts secrets and configured patterns from failure messages while keeping data', async () => {
    const chain = defineChain({
      nodes: {
        deploy: () =>
          reply(
            'failure',
            { account: 'ACCT-99812', detail: 'kept for the orchestrator' },
            'Deploy failed for ACCT-99812 using ghp_abcdefghijklmnopqrstuvwxyz123456',
          ),
        handler: () => reply('completed'),
      },
      edges: [{ from: 'deploy', to: 'handler', status: 'failure' }],
      start: 'deploy',
      guardrails: [redactionGuardrail({ patterns: [/ACCT-\d+/] })],
    });

    const result = await chain.run('ship');

    const deploy = result.outputs.deploy;
    expect(deploy?.message).toBe('Deploy failed for [REDACTED] using [REDACTED]');
    expect(deploy?.data).toEqual({ account: 'ACCT-99812', detail: 'kept for the orchestrator' });
    expect(result.trace[0]?.guardrails).toEqual(['redaction']);
  });

  it('leaves success messages alone by default', async () => {
    const chain = defineChain({
      nodes: { ok: () => reply('success', {}, 'Account ACCT-1 ready') },
      start: 'ok',
      guardrails: [redactionGuardrail({ patterns: [/ACCT-\d+/] })],
    });
    const result = await chain.run('x');
    expect(result.reply.message).toBe('Account ACCT-1 ready');
    expect(result.trace[0]?.guardrails).toEqual([]);
  });

  it('forces failure through an intervention guardrail before the next node sees the reply', async () => {
    let nextRan = false;
    const chain = defineChain({
      nodes: {
        writer: () => reply('success', { draft: 'x' }, 'Wire the money to account 123 now'),
        sender: () => {
          nextRan = true;
          return reply('completed');
        },
        blocked: {
          input: '{{writer.data.guardrail.reason}}',
          run: (input) => reply('completed', { reason: input }),
        },
      },
      edges: [
        { from: 'writer', to: 'sender', status: 'success' },
        { from: 'writer', to: 'blocked', status: 'failure' },
      ],
      start: 'writer',
      guardrails: [
        interventionGuardrail({
          name: 'payments-policy',
          check: (candidate) =>
            /wire the money/i.test(candidate.message) ? 'Payment instructions are not allowed.' : undefined,
        }),
      ],
    });

    const result = await chain.run('x');

    expect(nextRan).toBe(false);
    expect(result.outputs.writer).toMatchObject({
      status: 'failure',
      message: 'Payment instructions are not allowed.',
      data: { draft: 'x', guardrail: { name: 'payments-policy', original_status: 'success' } },
    });
    expect(result.reply.data.reason).toBe('Payment instructions are not allowed.');
  });

  it('writes one JSON line per reply with timestamp, correlation id, node, status and repairs', async () => {
    directory = await mkdtemp(join(tmpdir(), 'sacp-audit-'));
    const path = join(directory, 'nested', 'audit.jsonl');
    const audit = createJsonlAuditLog(path);
    const chain = defineChain({
      id: 'audited',
      nodes: {
        first: {
          model: createScriptedModel([
            "{'thought': 't', 'status': 'SUCCESS', 'data': {'k': 1}, 'message': 'ok',}",
          ]),
          system: 's',
        },
        second: () => reply('completed', {}, 'done'),
      },
      edges: [{ from: 'first', to: 'second' }],
      start: 'first',
      audit,
    });

    const result = await chain.run('x', { correlationId: 'corr-123' });
    await audit.flush();

    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      correlation_id: 'corr-123',
      chain_id: 'audited',
      node: 'first',
      step: 1,
      status: 'success',
      ok: true,
      data_keys: ['k'],
    });
    expect(lines[0].repairs).toEqual(expect.arrayContaining(['jsonrepair', 'coerced_status']));
    expect(Number.isNaN(Date.parse(lines[0].timestamp))).toBe(false);
    expect(lines[1]).toMatchObject({ node: 'second', status: 'completed', correlation_id: 'corr-123' });
    expect(result.correlationId).toBe('corr-123');
  });

  it('audits the reply after guardrails, with secrets redacted from thought and message', async () => {
    const audit = createMemoryAuditLog();
    const chain = defineChain({
      nodes: {
        leaky: () => ({
          thought: 'used sk-ant-abcdefghijklmnopqrstuv to call',
          status: 'success',
          data: { secret_ref: 'vault://x' },
          message: 'ok',
        }),
      },
      start: 'leaky',
      audit,
    });
    await chain.run('x');
    expect(audit.records).toHaveLength(1);
    expect(audit.records[0]?.thought).not.toContain('sk-ant-abcdefghijklmnopqrstuv');
    expect(JSON.stringify(audit.records[0])).not.toContain('vault://x');
  });
});

describe('defineChain: cancellation', () => {
  it('ends an aborted run before the next node starts', async () => {
    const controller = new AbortController();
    let secondRan = false;
    const chain = defineChain({
      nodes: {
        first: () => {
          controller.abort();
          return reply('success');
        },
        second: () => {
          secondRan = true;
          return reply('completed');
        },
      },
      edges: [{ from: 'first', to: 'second' }],
      start: 'first',
    });
    const result = await chain.run('x', { signal: controller.signal });
    expect(result.state).toBe('failed');
    expect(secondRan).toBe(false);
    if (result.state === 'failed') expect(result.error.code).toBe('sacp_aborted');
  });
});

describe('defineChain: validation', () => {
  it('rejects unknown nodes, bad conditions and agents without a model', () => {
    const ok = () => reply('success');
    expect(() => defineChain({ nodes: { a: ok }, start: 'b' })).toThrow(/Start node "b"/);
    expect(() => defineChain({ nodes: { a: ok }, edges: [{ from: 'a', to: 'zzz' }], start: 'a' })).toThrow(
      /zzz/,
    );
    expect(() =>
      defineChain({ nodes: { a: ok }, edges: [{ from: 'a', to: 'a', when: 'status ==' }], start: 'a' }),
    ).toThrow(PatchbayError);
    expect(() => defineChain({ nodes: { a: { system: 'x' } }, start: 'a' })).toThrow(/needs a model/);
    expect(() => defineChain({ nodes: { input: ok }, start: 'input' })).toThrow(/not allowed/);
    expect(() =>
      defineChain({
        nodes: { a: { model: createScriptedModel([]), system: 'x', dataSchema: { type: 'nope' } } },
        start: 'a',
      }),
    ).toThrow(expect.objectContaining({ code: 'sacp_invalid_data_schema' }));
  });
});
