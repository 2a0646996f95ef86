import { failure, success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCountingAgent, createTestStatusSource } from '../test/support.js';
import type { CallProgress } from './agent.js';
import { fromFunction } from './function-agent.js';
import { createOrchestrator } from './orchestrator.js';

const subject = 'user-1';

describe('execute options: deadlineMs and onProgress', () => {
  it('caps the tool’s own time limit with the caller’s deadline: one budget for the call', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    let aborted = false;
    orchestrator.register(
      createCountingAgent({
        tools: [{ name: 'count_echo', timeoutMs: 60_000 }],
        execute: (_tool, _args, context) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => {
              aborted = true;
              resolve('too late');
            });
          }),
      }),
    );
    await orchestrator.start();
    const envelope = await orchestrator.execute('count_echo', { text: 'x' }, { subject, deadlineMs: 50 });
    expect(envelope).toMatchObject({ ok: false, error_type: 'timeout', retryable: true });
    expect(envelope.ok === false && envelope.user_message).toContain('within 50 ms');
    // The agent was told to stop: the budget is enforced, not only reported.
    expect(aborted).toBe(true);
  });

  it('answers a stopped write as not retryable, since it may already have taken effect', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    // Tells the test when a call reached the agent, so a cancel lands while it runs.
    let reachedAgent: () => void = () => undefined;
    const hang = () => {
      reachedAgent();
      return new Promise<never>(() => {});
    };
    orchestrator.register(
      createCountingAgent({
        tools: [
          { name: 'count_post', effect: 'write', annotations: {}, timeoutMs: 40 },
          { name: 'count_put', effect: 'write', annotations: { idempotentHint: true }, timeoutMs: 40 },
          { name: 'count_echo', timeoutMs: 40 },
        ],
        execute: hang,
      }),
    );
    await orchestrator.start();
    const write = await orchestrator.execute('count_post', { text: 'x' }, { subject });
    expect(write).toMatchObject({ ok: false, error_type: 'timeout', retryable: false });
    expect(write.ok === false && write.user_message).toContain('may still have taken effect');
    // A write declared idempotent and a read are harmless to repeat: retryable as before.
    for (const name of ['count_put', 'count_echo']) {
      const envelope = await orchestrator.execute(name, { text: 'x' }, { subject });
      expect(envelope).toMatchObject({ ok: false, error_type: 'timeout', retryable: true });
      expect(envelope.ok === false && envelope.user_message).not.toContain('may still have taken effect');
    }
    // Cancelled by the caller once running: `cancelled`, and the write may have happened.
    const controller = new AbortController();
    const running = new Promise<void>((resolve) => {
      reachedAgent = resolve;
    });
    const cancelled = orchestrator.execute(
      'count_post',
      { text: 'x' },
      { subject, signal: controller.signal },
    );
    await running;
    controller.abort();
    const stopped = await cancelled;
    expect(stopped).toMatchObject({ ok: false, error_type: 'cancelled', retryable: false });
    expect(stopped.ok === false && stopped.user_message).toContain('may still have taken effect');
  });

  it('answers a call its caller cancelled mid-run `cancelled`, never retryable, even for a read', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(
      createCountingAgent({
        tools: [{ name: 'count_echo', timeoutMs: 60_000 }],
        execute: () => {
          reachedAgent();
          return new Promise<never>(() => {});
        },
      }),
    );
    await orchestrator.start();
    let reachedAgent: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      reachedAgent = resolve;
    });
    const controller = new AbortController();
    const running = orchestrator.execute('count_echo', { text: 'x' }, { subject, signal: controller.signal });
    // Cancelled once the call runs, not before the gate passed it on.
    await started;
    controller.abort();
    const envelope = await running;
    // A deadline that passed on a read is `timeout` and retryable (above); the person's cancel is not.
    expect(envelope).toMatchObject({ ok: false, error_type: 'cancelled', retryable: false });
    expect(envelope.ok === false && envelope.user_message).toBe(
      'The request was cancelled before it finished.',
    );
  });

  it('applies the rule to a timeout the agent reports itself (an MCP server that did not answer)', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(
      createCountingAgent({
        tools: [{ name: 'count_post', effect: 'write', annotations: {} }, { name: 'count_echo' }],
        execute: async () =>
          failure('timeout', { userMessage: 'The MCP server "lab" did not answer in time.' }),
      }),
    );
    await orchestrator.start();
    const write = await orchestrator.execute('count_post', { text: 'x' }, { subject });
    expect(write).toMatchObject({ ok: false, error_type: 'timeout', retryable: false });
    expect(write.ok === false && write.user_message).toBe(
      'The MCP server "lab" did not answer in time. It may still have taken effect: check before running it again.',
    );
    expect(await orchestrator.execute('count_echo', { text: 'x' }, { subject })).toMatchObject({
      error_type: 'timeout',
      retryable: true,
    });
  });

  it('keeps the tool’s own limit when it is lower than the caller’s deadline', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(
      createCountingAgent({
        tools: [{ name: 'count_echo', timeoutMs: 40 }],
        execute: () => new Promise(() => {}),
      }),
    );
    await orchestrator.start();
    const envelope = await orchestrator.execute('count_echo', { text: 'x' }, { subject, deadlineMs: 60_000 });
    expect(envelope.ok === false && envelope.user_message).toContain('within 40 ms');
  });

  it('hands the caller’s progress listener to the agent', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    orchestrator.register(
      createCountingAgent({
        execute: async (_tool, _args, context) => {
          context.onProgress?.({ progress: 1, total: 2 });
          context.onProgress?.({ progress: 2, total: 2, message: 'done' });
          return success('ok');
        },
      }),
    );
    await orchestrator.start();
    const seen: CallProgress[] = [];
    const envelope = await orchestrator.execute(
      'count_echo',
      { text: 'x' },
      { subject, onProgress: (progress) => seen.push(progress) },
    );
    expect(envelope).toMatchObject({ ok: true });
    expect(seen).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2, message: 'done' },
    ]);
  });
});

describe('an agent that throws', () => {
  it('is answered with its envelope, synchronously or not, even when logging the throw fails', async () => {
    const { pino } = await import('pino');
    // The line about the agent's throw fails to write (a full disk, a closed pipe).
    const failingLog = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          if (line.includes('agent threw')) throw new Error('disk full');
        },
      },
    );
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource(), logger: failingLog });
    orchestrator.register(
      createCountingAgent({
        tools: [
          { name: 'count_echo', timeoutMs: 60_000 },
          { name: 'count_sync', timeoutMs: 60_000 },
        ],
        execute: (tool) => {
          if (tool === 'count_sync') throw new Error('thrown before any promise');
          return Promise.reject(new Error('rejected'));
        },
      }),
    );
    await orchestrator.start();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const name of ['count_echo', 'count_sync']) {
        const envelope = await orchestrator.execute(name, { text: 'x' }, { subject });
        expect(envelope).toMatchObject({ ok: false, error_type: 'internal_error' });
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('a connection lost during a call', () => {
  it('answers a function that writes as not retryable, one that reads as retryable', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const reset = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        }),
      );
    for (const effect of ['write', 'read'] as const) {
      orchestrator.register(
        fromFunction({
          name: `${effect}_note`,
          description: `A function that ${effect}s a note.`,
          input: z.object({ text: z.string().describe('Text') }),
          effect,
          execute: reset,
        }),
      );
    }
    await orchestrator.start();
    const write = await orchestrator.execute('write_note', { text: 'x' }, { subject });
    expect(write).toMatchObject({ ok: false, error_type: 'network_error', retryable: false });
    expect(write.ok === false && write.user_message).toContain('It may still have taken effect');
    const read = await orchestrator.execute('read_note', { text: 'x' }, { subject });
    expect(read).toMatchObject({ ok: false, error_type: 'network_error', retryable: true });
  });
});
