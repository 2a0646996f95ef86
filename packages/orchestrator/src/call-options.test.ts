import { success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { createCountingAgent, createTestStatusSource } from '../test/support.js';
import type { CallProgress } from './agent.js';
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
