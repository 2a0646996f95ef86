import { PatchbayError } from '@patchbay/envelope';
import { memoryLimits as storeLimits } from '@patchbay/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryAgent } from './agent/memory-agent.js';
import { memoryLimits } from './server/memory-tools.js';
import { type MemoryWorld, openMemoryWorld, removeHome } from './test-kit.js';
import { turnMemory } from './turn-memory.js';

const worlds: MemoryWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.close();
    removeHome(world.home);
  }
});

/** A memory agent that only counts what it is handed. */
function countingAgent() {
  const invoked: string[] = [];
  const agent: MemoryAgent = {
    async invoke(control, threadId) {
      invoked.push(`${control}:${threadId}`);
      return { control, steps: [] } as unknown as Awaited<ReturnType<MemoryAgent['invoke']>>;
    },
    async state() {
      return {} as Awaited<ReturnType<MemoryAgent['state']>>;
    },
  };
  return { agent, invoked };
}

describe('turnMemory', () => {
  it('refuses to read or record for another subject, handing the agent nothing', async () => {
    const world = await openMemoryWorld();
    worlds.push(world);
    const { agent, invoked } = countingAgent();
    const memory = turnMemory({
      orchestrator: world.orchestrator,
      subject: 'alice',
      ...world.ids,
      agent,
      checkpointer: world.store,
    });
    const refused = await memory
      .record('bob', 'thread-1', { role: 'user', content: 'Bob says hi.' })
      .catch((error: unknown) => error);
    expect(PatchbayError.isInstance(refused) && refused.code).toBe('invalid_arguments');
    expect(String(refused)).toMatch(/another subject; it is not written/);
    await expect(memory.context('bob', 'thread-1')).rejects.toThrow(/not read/);
    expect(invoked).toEqual([]);
    await memory.record('alice', 'thread-1', { role: 'user', content: 'Alice says hi.' });
    expect(invoked.filter((step) => step.startsWith('process_message'))).toHaveLength(1);
  });

  it('the tools hold the store’s bounds, so either refuses the same writes', () => {
    expect(memoryLimits).toEqual(storeLimits);
  });
});
