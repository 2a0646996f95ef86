import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryAgent, type MemoryAgentOptions } from './agent/memory-agent.js';
import { builtInPromptLoader } from './agent/rule-prompt-loader.js';
import { createMemoryInvoker } from './invoker.js';
import {
  diligentModel,
  type MemoryWorld,
  offeredTool,
  openMemoryWorld,
  removeHome,
  systemPrompt,
} from './test-kit.js';

const worlds: MemoryWorld[] = [];
const homes = new Set<string>();
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
  for (const home of homes) removeHome(home);
  homes.clear();
});

async function world(home?: string) {
  const opened = await openMemoryWorld(home);
  worlds.push(opened);
  homes.add(opened.home);
  return opened;
}

function invokerOn(
  opened: MemoryWorld,
  options: { flushEvery?: number; autoStart?: boolean; agent?: Partial<MemoryAgentOptions> } = {},
) {
  const model = createScriptedModel(diligentModel);
  const agent = createMemoryAgent({
    model,
    orchestrator: opened.orchestrator,
    subject: 'alice',
    ...opened.ids,
    checkpointer: opened.store,
    prompts: builtInPromptLoader,
    ...options.agent,
  });
  const invoker = createMemoryInvoker({
    agent,
    threadId: 'conversation-1',
    checkpointer: opened.store,
    ...(options.flushEvery ? { flushEvery: options.flushEvery } : {}),
    ...(options.autoStart === undefined ? {} : { autoStart: options.autoStart }),
  });
  return { model, invoker };
}

const count = (opened: MemoryWorld, method: string) =>
  opened.methods().filter((name) => name === method).length;

describe('the memory invoker', () => {
  it('flushes on every 6th message: one model call per message plus one per flush', async () => {
    const opened = await world();
    const { model, invoker } = invokerOn(opened);
    await invoker.startSession();
    for (let index = 1; index <= 13; index += 1) {
      await invoker.processMessage(index % 2 ? 'user' : 'assistant', `message ${index}`);
    }
    expect(count(opened, 'addEntry')).toBe(13);
    expect(count(opened, 'putContext')).toBe(2);
    expect(count(opened, 'awaitConsistency')).toBe(2);
    expect(model.calls).toHaveLength(13 + 2);
    // The flushes came right after messages 6 and 12.
    const order = opened.methods().filter((name) => name === 'addEntry' || name === 'putContext');
    expect(order.indexOf('putContext')).toBe(6);
    expect(order.lastIndexOf('putContext')).toBe(13);
    await invoker.endSession();
    expect(count(opened, 'putContext')).toBe(3);
    expect(model.calls).toHaveLength(16);
  });

  it('takes another cadence when configured', async () => {
    const opened = await world();
    const { invoker } = invokerOn(opened, { flushEvery: 2 });
    await invoker.startSession();
    for (let index = 1; index <= 5; index += 1) await invoker.processMessage('user', `m${index}`);
    expect(count(opened, 'putContext')).toBe(2);
  });

  it('keeps the cadence across a restart mid-session (the count is persisted per thread)', async () => {
    const first = await world();
    const before = invokerOn(first);
    await before.invoker.startSession();
    for (let index = 1; index <= 4; index += 1)
      await before.invoker.processMessage('user', `before ${index}`);
    expect(await before.invoker.messageCount()).toBe(4);
    await first.close();
    worlds.splice(worlds.indexOf(first), 1);

    // A new process: a new store handle, orchestrator, agent and invoker on the same file.
    const second = await world(first.home);
    const after = invokerOn(second);
    await after.invoker.processMessage('assistant', 'after 5');
    expect(count(second, 'putContext')).toBe(0);
    await after.invoker.processMessage('user', 'after 6');
    expect(count(second, 'putContext')).toBe(1);
    expect(await after.invoker.messageCount()).toBe(6);
    // The agent's history survived too: the flush saw the messages from before the restart.
    const flushPrompt = after.model.calls
      .filter((call) => offeredTool(call) === 'put_context')
      .map(systemPrompt)[0];
    expect(flushPrompt).toContain('before 1');
  });

  it('starts the session itself on a thread that never had one, once', async () => {
    const opened = await world();
    const { invoker } = invokerOn(opened);
    await invoker.processMessage('user', 'first');
    await invoker.processMessage('user', 'second');
    expect(opened.methods()).toEqual(['getContext', 'listEntries', 'addEntry', 'addEntry']);

    // As the seed: without autoStart, a message before startSession() is an error, and nothing is written.
    const manual = await world();
    const { invoker: seedLike } = invokerOn(manual, { autoStart: false });
    await expect(seedLike.processMessage('user', 'first')).rejects.toThrow(/No session was started/);
    expect(manual.methods()).toEqual([]);
    expect(await seedLike.messageCount()).toBe(0);
  });

  it('does not count a message whose processing failed, so its retry keeps the cadence', async () => {
    const opened = await world();
    let failing = true;
    const model = createScriptedModel((call) => {
      if (failing) throw new Error('provider unavailable');
      return diligentModel(call);
    });
    const { invoker } = invokerOn(opened, { agent: { model } });
    await invoker.startSession();
    await expect(invoker.processMessage('user', 'first')).rejects.toThrow(/provider unavailable/);
    expect(await invoker.messageCount()).toBe(0);
    failing = false;
    await invoker.processMessage('user', 'first');
    expect(await invoker.messageCount()).toBe(1);
    expect(count(opened, 'addEntry')).toBe(1);
  });
});

describe('flush input: bounded (default) against the seed’s full history', () => {
  it('stays flat in bounded mode over 120 messages while full mode grows', async () => {
    const sizes: Record<'bounded' | 'full', number[]> = { bounded: [], full: [] };
    for (const mode of ['bounded', 'full'] as const) {
      const opened = await world();
      const { model, invoker } = invokerOn(opened, { agent: { contextInput: mode } });
      await invoker.startSession();
      for (let index = 1; index <= 120; index += 1) {
        await invoker.processMessage(
          index % 2 ? 'user' : 'assistant',
          `message ${index}: ${'word '.repeat(20)}`,
        );
      }
      sizes[mode] = model.calls
        .filter((call) => offeredTool(call) === 'put_context')
        .map((call) => systemPrompt(call).length);
    }
    expect(sizes.bounded).toHaveLength(20);
    // Bounded: the last flush costs about what the second did (the context text here grows by a few digits).
    expect(sizes.bounded.at(-1)! - sizes.bounded[1]!).toBeLessThan(50);
    // Full: every flush carries the whole conversation so far (about 120 characters more per message).
    expect(sizes.full.at(-1)! - sizes.full[0]!).toBeGreaterThan(100 * 114);
  });
});
