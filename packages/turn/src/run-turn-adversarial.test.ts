import { defineConnector, defineTool } from '@patchbay/connector';
import { PatchbayError, success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type RunTurnOptions, runTurn, type TurnResult } from './run-turn.js';
import { createScriptedModel } from './testing/scripted-model.js';
import { createInMemoryThreadStore } from './thread-store.js';

// Worst-case models: they obey nothing, ignore aborts, hang, loop and vary their arguments. Every test
// counts what reached the service, not what the trace claims.

const charges: unknown[] = [];
const posts: unknown[] = [];
const lookups: unknown[] = [];
/** Resolves the pending lookups the test holds open (a slow service). */
let releaseLookup: (() => void) | undefined;

const payments = defineConnector({
  id: 'payments',
  name: 'Payments',
  description: 'A payment service used by these tests.',
  auth: { kind: 'bearer' },
  capabilities: ['charge cards'],
  wouldEnable: ['Charge a card from chat'],
  setupUrl: 'https://app.test/settings/payments',
  tools: [
    defineTool({
      name: 'payments_charge_card',
      description: 'Charges the card on file.',
      input: z.object({
        amount: z.number().positive().describe('Amount in dollars'),
        currency: z.string().trim().default('usd').describe('Currency code'),
      }),
      effect: 'write',
      execute: async (input) => {
        charges.push(input);
        return success({ charged: input.amount });
      },
    }),
    defineTool({
      name: 'payments_post_note',
      description: 'Adds a note to the account.',
      input: z.object({ text: z.string().describe('Note text') }),
      effect: 'write',
      execute: async (input) => {
        posts.push(input);
        return success({ id: posts.length });
      },
    }),
    defineTool({
      name: 'payments_lookup',
      description: 'Looks up a payment; slow.',
      input: z.object({ id: z.string().describe('Payment id') }),
      effect: 'read',
      execute: async (input, context) => {
        lookups.push({ input, signalled: () => context.signal?.aborted === true });
        await new Promise<void>((resolve) => {
          releaseLookup = resolve;
          context.signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        return success({ id: input.id });
      },
    }),
  ],
  verify: async () => ({ valid: true, scopes: [] }),
});

const now = () => new Date('2026-11-21T15:00:00Z');

async function setup() {
  charges.length = 0;
  posts.length = 0;
  lookups.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'payments', { credentials: { token: 'payments-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors: [payments] });
  await orchestrator.start();
  return {
    model: undefined as unknown as RunTurnOptions['model'],
    thread: 'adversarial',
    message: 'Charge my card 5 dollars',
    subject: 'ana',
    orchestrator,
    connectors: [payments],
    statusSource,
    now,
  } satisfies RunTurnOptions;
}

/** The turn's result, or `'hung'` when it has not returned after a bound no healthy turn gets near. */
async function withinBound(turn: Promise<TurnResult>, ms = 10_000): Promise<TurnResult | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  try {
    return await Promise.race([turn, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('runTurn against a worst-case model', () => {
  it('charges once when the model repeats a write with a new unknown key every step', async () => {
    const base = await setup();
    let step = 0;
    const model = createScriptedModel(() => {
      step += 1;
      return {
        toolCalls: [
          { toolName: 'payments_charge_card', input: { amount: 5, [`note_${step}`]: `again ${step}` } },
        ],
      };
    });
    const result = await runTurn({ ...base, model, maxSteps: 6 });
    expect(model.calls).toHaveLength(6);
    expect(charges).toEqual([{ amount: 5, currency: 'usd' }]);
    expect(result.trace.calls.map((call) => call.skipped)).toEqual([
      undefined,
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
  });

  it('charges once when the repeat differs only in what the schema fills in or trims', async () => {
    const base = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'payments_charge_card', input: { amount: 5 } }] },
      { toolCalls: [{ toolName: 'payments_charge_card', input: { amount: 5, currency: 'usd' } }] },
      { toolCalls: [{ toolName: 'payments_charge_card', input: { currency: ' usd ', amount: 5 } }] },
      'Charged.',
    ]);
    await runTurn({ ...base, model });
    expect(charges).toHaveLength(1);
  });

  it('still sends a write whose validated arguments differ', async () => {
    const base = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'payments_charge_card', input: { amount: 5, extra: 1 } }] },
      { toolCalls: [{ toolName: 'payments_charge_card', input: { amount: 7, extra: 1 } }] },
      'Charged twice.',
    ]);
    await runTurn({ ...base, model });
    expect(charges).toEqual([
      { amount: 5, currency: 'usd' },
      { amount: 7, currency: 'usd' },
    ]);
  });

  it('runs at most maxCallsPerStep calls of one step; the rest are answered without running', async () => {
    const base = await setup();
    const threadStore = createInMemoryThreadStore();
    const notes = Array.from({ length: 50 }, (_, index) => ({
      toolName: 'payments_post_note',
      input: { text: `note ${index}` },
    }));
    const model = createScriptedModel([{ toolCalls: notes }, 'Done.']);
    const result = await runTurn({ ...base, model, threadStore });
    expect(posts).toHaveLength(16);
    const skipped = result.trace.calls.filter((call) => call.skipped === 'call_cap');
    expect(skipped).toHaveLength(34);
    expect(skipped[0]!.envelope).toMatchObject({ ok: false, error_type: 'rate_limited' });
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain('at most 16 tool calls');
    // Every call the model made has its result in the stored thread, so the next turn is a valid prompt.
    const stored = (await threadStore.load('adversarial'))!.messages;
    const results = stored
      .filter((message) => message.role === 'tool')
      .flatMap((message) => (Array.isArray(message.content) ? message.content : [message.content]));
    expect(results).toHaveLength(50);

    const capped = await setup();
    const tight = createScriptedModel([{ toolCalls: notes }, 'Done.']);
    await runTurn({ ...capped, model: tight, maxCallsPerStep: 3 });
    expect(posts).toHaveLength(3);
  });

  it('makes no model call after the signal aborts, even when the model ignores it', async () => {
    const base = await setup();
    const controller = new AbortController();
    const model = createScriptedModel((_call, index) => {
      if (index === 2) controller.abort();
      return { toolCalls: [{ toolName: 'payments_post_note', input: { text: `note ${index}` } }] };
    });
    const result = await runTurn({ ...base, model, maxSteps: 50, signal: controller.signal });
    // The third call was in flight when the signal fired: its answer is dropped, nothing follows it.
    expect(model.calls).toHaveLength(3);
    expect(posts).toHaveLength(2);
    expect(result.trace.steps).toHaveLength(2);
    expect(result.trace.outcome).toBe('aborted');
    expect(result.reply).toMatch(/cancelled/i);
  });

  it('abandons a hung model call when the signal aborts', async () => {
    const base = await setup();
    const controller = new AbortController();
    const model = createScriptedModel(() => {
      // The signal fires while the model call runs, which never answers and never looks at its signal.
      controller.abort();
      return new Promise<never>(() => {});
    });
    const threadStore = createInMemoryThreadStore();
    const result = await withinBound(runTurn({ ...base, model, threadStore, signal: controller.signal }));
    expect(result).not.toBe('hung');
    const { trace, reply } = result as TurnResult;
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.abortSignal?.aborted).toBe(true);
    expect(trace.outcome).toBe('aborted');
    expect(reply).toMatch(/cancelled/i);
    // The thread holds the user's message and the reply: nothing of the abandoned step.
    const stored = (await threadStore.load('adversarial'))!.messages;
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('ends the turn as timed_out when one model call outlives modelTimeoutMs', async () => {
    const base = await setup();
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'payments_post_note', input: { text: 'first' } }] },
      () => new Promise<never>(() => {}),
    ]);
    const threadStore = createInMemoryThreadStore();
    const result = await withinBound(runTurn({ ...base, model, threadStore, modelTimeoutMs: 50 }));
    expect(result).not.toBe('hung');
    const { trace, reply } = result as TurnResult;
    expect(trace.outcome).toBe('timed_out');
    expect(reply).toMatch(/did not answer/i);
    expect(posts).toHaveLength(1);
    // The completed step stays (its note was posted, the next turn must know); the hung one left nothing.
    const stored = (await threadStore.load('adversarial'))!.messages;
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('gives a hung model 120 s by default, then ends the turn timed_out', async () => {
    const base = await setup();
    vi.useFakeTimers();
    try {
      const model = createScriptedModel(() => new Promise<never>(() => {}));
      let result: TurnResult | undefined;
      const turn = runTurn({ ...base, model }).then((value) => {
        result = value;
      });
      await vi.advanceTimersByTimeAsync(119_000);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1_000);
      await turn;
      expect(result?.trace.outcome).toBe('timed_out');
      expect(result?.reply).toBe('I stopped because the model did not answer within 120 s.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes its signal to tools and sends none of the step’s later calls once it aborts', async () => {
    const base = await setup();
    const controller = new AbortController();
    const model = createScriptedModel([
      {
        toolCalls: [
          { toolName: 'payments_lookup', input: { id: 'p1' } },
          { toolName: 'payments_post_note', input: { text: 'after the lookup' } },
          { toolName: 'payments_charge_card', input: { amount: 5 } },
        ],
      },
      'unreachable',
    ]);
    const turn = runTurn({ ...base, model, signal: controller.signal });
    await expect.poll(() => lookups.length).toBe(1);
    controller.abort();
    const result = await withinBound(turn);
    expect(result).not.toBe('hung');
    const { trace } = result as TurnResult;
    expect((lookups[0] as { signalled: () => boolean }).signalled()).toBe(true);
    expect(posts).toHaveLength(0);
    expect(charges).toHaveLength(0);
    expect(trace.calls.map((call) => call.skipped)).toEqual([undefined, 'cancelled', 'cancelled']);
    expect(model.calls).toHaveLength(1);
    expect(trace.outcome).toBe('aborted');
    releaseLookup?.();
  });

  it('returns at once, without calling the model, when the signal is already aborted', async () => {
    const base = await setup();
    const model = createScriptedModel(['never']);
    const result = await runTurn({ ...base, model, signal: AbortSignal.abort() });
    expect(model.calls).toHaveLength(0);
    expect(result.trace.outcome).toBe('aborted');
  });

  it.each([
    ['maxSteps', { maxSteps: 1e9 }],
    ['maxSteps', { maxSteps: 0 }],
    ['maxSteps', { maxSteps: 2.5 }],
    ['maxCallsPerStep', { maxCallsPerStep: 0 }],
    ['maxCallsPerStep', { maxCallsPerStep: 1e6 }],
    ['modelTimeoutMs', { modelTimeoutMs: 0 }],
    ['modelTimeoutMs', { modelTimeoutMs: Number.POSITIVE_INFINITY }],
    ['temperature', { temperature: 7 }],
    ['temperature', { temperature: Number.NaN }],
    ['retry.maxAttempts', { retry: { maxAttempts: 1e9 } }],
    ['retry.maxAttempts', { retry: { maxAttempts: -1 } }],
    ['retry.temperature', { retry: { temperature: -0.5 } }],
    ['retry.temperatureStep', { retry: { temperatureStep: 3 } }],
  ] as const)('refuses %s out of range (%j) before calling the model', async (name, limits) => {
    const base = await setup();
    const model = createScriptedModel(['never']);
    const thrown = await runTurn({ ...base, model, ...limits }).catch((error: unknown) => error);
    expect(PatchbayError.isInstance(thrown)).toBe(true);
    expect((thrown as PatchbayError).code).toBe('invalid_turn_options');
    expect((thrown as PatchbayError).message).toContain(name);
    expect(model.calls).toHaveLength(0);
  });
});
