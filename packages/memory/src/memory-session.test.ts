import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryAgent } from './agent/memory-agent.js';
import { builtInPromptLoader } from './agent/rule-prompt-loader.js';
import { diligentModel, type MemoryWorld, openMemoryWorld, removeHome, systemPrompt } from './test-kit.js';

const worlds: MemoryWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.close();
    removeHome(world.home);
  }
});

async function setup() {
  const world = await openMemoryWorld();
  worlds.push(world);
  const model = createScriptedModel(diligentModel);
  const agent = createMemoryAgent({
    model,
    orchestrator: world.orchestrator,
    subject: 'alice',
    ...world.ids,
    checkpointer: world.store,
    prompts: builtInPromptLoader,
  });
  return { world, model, agent };
}

const user = (content: string) => ({ role: 'user' as const, content });

describe('seed 002 sessions', () => {
  it('refuses a message on a thread whose session was never started, before anything is written', async () => {
    const { world, model, agent } = await setup();
    await expect(agent.invoke('process_message', 'thread-1', user('hello'))).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('invoke start_session first'),
    });
    await expect(agent.invoke('process_message_and_flush', 'thread-1', user('hello'))).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(world.methods()).toEqual([]);
    expect(model.calls).toHaveLength(0);
  });

  it('start_session adds to the history instead of resetting it; unflushed entries reach the next context', async () => {
    const { model, agent } = await setup();
    await agent.invoke('start_session', 'thread-1');
    await agent.invoke('process_message', 'thread-1', user('My dentist is on Friday.'));
    await agent.invoke('process_message', 'thread-1', user('I moved to Lyon.'));
    // The app starts a session again without ending the first (a reload, a crash).
    await agent.invoke('start_session', 'thread-1');

    const state = await agent.state('thread-1');
    const said = state.history.filter((message) => message.role === 'user').map((message) => message.content);
    expect(said).toEqual(['My dentist is on Friday.', 'I moved to Lyon.']);
    expect(state.sinceFlush.map((entry) => entry.rawEntry)).toEqual([
      'My dentist is on Friday.',
      'I moved to Lyon.',
    ]);

    await agent.invoke('end_session', 'thread-1');
    const flushPrompt = systemPrompt(model.calls.at(-1)!);
    for (const entry of state.sinceFlush) expect(flushPrompt).toContain(entry.summary);
  });

  it('keeps only the latest session start’s context and entries in the bounded history', async () => {
    const { agent } = await setup();
    for (let session = 0; session < 4; session += 1) {
      await agent.invoke('start_session', 'thread-1');
      await agent.invoke('process_message', 'thread-1', user(`message ${session}`));
    }
    const state = await agent.state('thread-1');
    expect(state.history.filter((message) => message.role === 'system')).toHaveLength(2);
  });
});

describe('a stopped in-process memory server in a turn', () => {
  it('shows as unavailable in the status block, not gone', async () => {
    const { world } = await setup();
    const turn = async () =>
      runTurn({
        model: createScriptedModel(['ok']),
        thread: 't1',
        message: 'What do you remember?',
        subject: 'alice',
        orchestrator: world.orchestrator,
        connectors: [],
        statusSource: world.store,
      });
    expect((await turn()).trace.connectorStatus.memory).toMatchObject({ status: 'connected' });
    await world.orchestrator.stopAgent('memory');
    const stopped = await turn();
    expect(stopped.trace.connectorStatus.memory).toEqual({ status: 'unavailable' });
    expect(stopped.trace.exposedTools.filter((name) => name !== 'refresh_connector_status')).toEqual([]);
  });
});
