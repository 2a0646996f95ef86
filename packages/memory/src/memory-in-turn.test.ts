import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryToolNames } from './server/memory-tools.js';
import { type MemoryWorld, openMemoryWorld, removeHome } from './test-kit.js';

const worlds: MemoryWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.close();
    removeHome(world.home);
  }
});

describe('memory in a turn', () => {
  it('appears in the status block as the connector `memory`, connected with its tools', async () => {
    const world = await openMemoryWorld();
    worlds.push(world);
    const model = createScriptedModel(['Hello!']);
    const result = await runTurn({
      model,
      thread: 'turn-1',
      message: 'Hi',
      subject: 'alice',
      orchestrator: world.orchestrator,
      connectors: [],
      statusSource: world.store,
    });
    expect(result.trace.connectorStatus.memory).toEqual({
      status: 'connected',
      tools: [...memoryToolNames].sort(),
    });
  });
});
