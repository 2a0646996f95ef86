import { afterEach, describe, expect, it } from 'vitest';
import { readMemoryForTurn } from './memory-turn-context.js';
import { type MemoryWorld, openMemoryWorld, removeHome } from './test-kit.js';

const worlds: MemoryWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.close();
    removeHome(world.home);
  }
});

describe('readMemoryForTurn', () => {
  it('reports memory connected with the previous session’s context', async () => {
    const world = await openMemoryWorld();
    worlds.push(world);
    await world.store.memory!.putContext(
      'alice',
      world.ids.vaultId,
      world.ids.memoryId,
      'Alice moved to Lyon.',
    );
    const read = await readMemoryForTurn({
      orchestrator: world.orchestrator,
      subject: 'alice',
      ...world.ids,
    });
    expect(read).toEqual({ status: 'connected', context: 'Alice moved to Lyon.', contextVersion: 1 });
  });

  it('reports memory unavailable, without throwing, when the memory server is down', async () => {
    const world = await openMemoryWorld();
    worlds.push(world);
    await world.orchestrator.stopAgent('memory');
    const read = await readMemoryForTurn({
      orchestrator: world.orchestrator,
      subject: 'alice',
      ...world.ids,
    });
    expect(read.status).toBe('unavailable');
  });
});
