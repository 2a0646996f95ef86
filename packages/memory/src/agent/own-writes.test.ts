import { createOrchestrator } from '@patchbay/orchestrator';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { diligentModel, type MemoryWorld, openMemoryWorld, removeHome } from '../test-kit.js';
import { ensureMemory } from './ensure-memory.js';
import { createMemoryAgent, type MemoryAgentOptions } from './memory-agent.js';
import { memoryAgentApprover } from './own-writes.js';
import { builtInPromptLoader } from './rule-prompt-loader.js';

// Seed 003's policy, `approvals: { default: 'writes' }`: every write waits for a person. The memory
// agent's own writes must still run (memory is Patchbay's own store, and their arguments are fixed
// by the agent), and nothing else may ride on that: no one else's proposal is ever approved by it.

const worlds: MemoryWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.close();
    removeHome(world.home);
  }
});

async function writesWorld(overrides: Partial<MemoryAgentOptions> = {}) {
  const world = await openMemoryWorld(undefined, { approvals: { default: 'writes' } });
  worlds.push(world);
  const agent = createMemoryAgent({
    model: createScriptedModel(diligentModel),
    orchestrator: world.orchestrator,
    subject: 'alice',
    ...world.ids,
    checkpointer: world.store,
    prompts: builtInPromptLoader,
    ...overrides,
  });
  return { world, agent };
}

describe('the memory agent under the `writes` approval policy', () => {
  it('creates the vault and memory, records and flushes; each write approved by the agent, audited as such', async () => {
    // openMemoryWorld ran ensureMemory under the policy: create_vault and create_memory_in_vault.
    const { world, agent } = await writesWorld();
    await agent.invoke('start_session', 'thread-1');
    await agent.invoke('process_message', 'thread-1', { role: 'user', content: 'I moved to Lyon.' });
    await agent.invoke('end_session', 'thread-1');

    expect(world.methods()).toEqual([
      'getContext',
      'listEntries',
      'addEntry',
      'awaitConsistency',
      'putContext',
    ]);
    const context = await world.store.memory!.getContext('alice', world.ids.vaultId, world.ids.memoryId);
    expect(context?.content).toBeTruthy();
    const proposals = await world.orchestrator.listProposals({ subject: 'alice' });
    expect(proposals.map((proposal) => proposal.tool).sort()).toEqual([
      'add_entry',
      'create_memory_in_vault',
      'create_vault',
      'put_context',
    ]);
    for (const proposal of proposals) {
      expect(proposal.state).toBe('executed');
      expect(proposal.decidedBy).toBe(memoryAgentApprover);
    }
  });

  it('never approves a proposal it did not make, and never a delete', async () => {
    const { world, agent } = await writesWorld();
    // A host or a chat model asks for the same kind of writes, and for a delete, through the same gate.
    const foreign = [
      await world.orchestrator.execute(
        'add_entry',
        { ...idsOf(world), raw_entry: 'planted', summary: 'planted' },
        { subject: 'alice' },
      ),
      await world.orchestrator.execute(
        'put_context',
        { ...idsOf(world), content: 'planted' },
        { subject: 'alice' },
      ),
    ];
    for (const envelope of foreign)
      expect(envelope).toMatchObject({ ok: false, error_type: 'approval_required' });

    await agent.invoke('start_session', 'thread-1');
    for (let index = 0; index < 6; index += 1) {
      await agent.invoke(index === 5 ? 'process_message_and_flush' : 'process_message', 'thread-1', {
        role: 'user',
        content: `message ${index}`,
      });
    }
    await agent.invoke('end_session', 'thread-1');

    const foreignIds = foreign.map((envelope) => (envelope.ok ? '' : envelope.proposal_id));
    const proposals = await world.orchestrator.listProposals({ subject: 'alice' });
    const foreignNow = proposals.filter((proposal) => foreignIds.includes(proposal.id));
    // What must not happen: a proposal the agent did not make, decided by the agent. Counted.
    expect(foreignNow.filter((proposal) => proposal.state !== 'pending')).toHaveLength(0);
    expect(foreignNow).toHaveLength(2);
    // And nothing planted reached memory.
    const entries = await world.store.memory!.listEntries('alice', world.ids.vaultId, world.ids.memoryId, {
      limit: 100,
    });
    expect(JSON.stringify(entries)).not.toContain('planted');
    expect(proposals.filter((proposal) => proposal.tool === 'forget_entry')).toHaveLength(0);
  });

  it('with approveOwnWrites: false, leaves its write to a person and says so', async () => {
    const { world, agent } = await writesWorld({ approveOwnWrites: false });
    await agent.invoke('start_session', 'thread-1');
    await expect(
      agent.invoke('process_message', 'thread-1', { role: 'user', content: 'hello' }),
    ).rejects.toMatchObject({ code: 'approval_required' });
    expect(world.methods()).not.toContain('addEntry');
    const pending = await world.orchestrator.listProposals({ subject: 'alice', state: 'pending' });
    expect(pending.map((proposal) => proposal.tool)).toEqual(['add_entry']);
  });

  it('ensureMemory without approveAndExecute on the gate reports the pending write instead of stalling', async () => {
    const world = await openMemoryWorld(undefined, { approvals: { default: 'writes' } });
    worlds.push(world);
    const gate = createOrchestrator({ statusSource: world.store, approvals: { default: 'writes' } });
    gate.register(world.server);
    await gate.start();
    const executeOnly = { execute: gate.execute.bind(gate) };
    await expect(ensureMemory({ orchestrator: executeOnly, subject: 'bob' })).rejects.toMatchObject({
      code: 'approval_required',
    });
    await gate.stop();
  });
});

function idsOf(world: MemoryWorld) {
  return { vault_id: world.ids.vaultId, memory_id: world.ids.memoryId };
}
