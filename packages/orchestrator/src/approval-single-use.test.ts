import type { AuditEntry, Proposal, ProposalStore, StatusSource } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import {
  captureLogger,
  createCountingAgent,
  createTamperableProposalStore,
  createTestStatusSource,
} from '../test/support.js';
import type { AgentTool } from './agent.js';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';
import { createOrchestrator, type OrchestratorOptions } from './orchestrator.js';

// Someone who can write the proposal store but lacks the key edits an executed proposal back into an
// approval, or restores the approved row as it was; a caller cancels a call before it is decided.
// Each test counts what reached the agent and what proposals exist.

const subject = 'user-1';
const key = new Uint8Array(32).fill(7);
const deleteTool: Partial<AgentTool> = {
  name: 'remote_delete',
  effect: 'destructive',
  description: 'Deletes one record.',
};

function proposalIdOf(envelope: { ok: boolean; proposal_id?: string }): string {
  expect(envelope).toMatchObject({ ok: false, error_type: 'approval_required' });
  return envelope.proposal_id!;
}

async function setup(options: Partial<OrchestratorOptions> = {}) {
  const audit: AuditEntry[] = [];
  const { logger, text } = captureLogger();
  const orchestrator = createOrchestrator({
    statusSource: createTestStatusSource(),
    proposals: createInMemoryProposalStore(),
    proposalKey: key,
    audit: { append: async (entry) => void audit.push(entry) },
    logger,
    // A fixed clock: a second approval by the same person is then indistinguishable by its time.
    now: () => new Date('2030-01-01T10:00:00.000Z'),
    ...options,
  });
  const agent = createCountingAgent({ id: 'records', tools: [deleteTool] });
  orchestrator.register(agent);
  await orchestrator.start();
  return { orchestrator, agent, audit, text };
}

/** Proposes, approves and runs one delete, as a person would; returns its id. */
async function runOnce(orchestrator: Awaited<ReturnType<typeof setup>>['orchestrator']) {
  const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
  await orchestrator.approve(id, { decidedBy: 'alice' });
  expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: true });
  return id;
}

describe('an approval runs its call once, whatever is written into the store afterwards', () => {
  it('an executed row set back to approved is refused, voided and audited: 1 execution', async () => {
    const proposals = createTamperableProposalStore();
    const { orchestrator, agent, audit } = await setup({ proposals });
    const id = await runOnce(orchestrator);
    expect(proposals.row(id)).toMatchObject({ state: 'executed', decidedBy: 'alice' });
    expect(proposals.row(id)).not.toHaveProperty('approvalMac');
    proposals.tamper(id, { state: 'approved' });
    // The model repeats the call, and someone calls executeProposal: neither runs it.
    proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(agent.calls).toHaveLength(1);
    expect(proposals.row(id)?.state).toBe('expired');
    expect(audit).toEqual([expect.objectContaining({ event: 'proposal_tampered', proposal_id: id })]);
  });

  it('the same edit seen by another orchestrator on the store (another process) runs nothing', async () => {
    const proposals = createTamperableProposalStore();
    const first = await setup({ proposals });
    const id = await runOnce(first.orchestrator);
    proposals.tamper(id, { state: 'approved' });
    const second = await setup({ proposals });
    expect(await second.orchestrator.executeProposal(id)).toMatchObject({
      ok: false,
      error_type: 'conflict',
    });
    expect(first.agent.calls.length + second.agent.calls.length).toBe(1);
    expect(second.audit.map((entry) => entry.event)).toEqual(['proposal_tampered']);
  });

  it('an approved row restored whole after its call ran (its approval MAC too) is refused in this process', async () => {
    const proposals = createTamperableProposalStore();
    const { orchestrator, agent, audit, text } = await setup({ proposals });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id, { decidedBy: 'alice' });
    const copy = structuredClone(proposals.row(id)!);
    expect(copy.approvalMac).toEqual(expect.any(String));
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: true });
    proposals.tamper(id, copy);
    proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    proposals.tamper(id, copy);
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(agent.calls).toHaveLength(1);
    expect(audit).toEqual([
      expect.objectContaining({ event: 'proposal_tampered', reason: 'approval_already_used' }),
      expect.objectContaining({ event: 'proposal_tampered', reason: 'approval_already_used' }),
    ]);
    expect(text()).toContain('its approval was already used');
  });

  it('a store that keeps the approval MAC on execution is named in a warning, and its replay refused here', async () => {
    const inner = createInMemoryProposalStore();
    const kept = new Map<string, string>();
    // Written against the port as it was: executing kept every decision field.
    const keeping: ProposalStore = {
      ...inner,
      async transition(id, from, to, decision) {
        const before = await inner.get(id);
        if (to === 'executed' && before?.approvalMac) kept.set(id, before.approvalMac);
        const moved = await inner.transition(id, from, to, decision);
        return moved && kept.has(id) && to === 'executed' ? { ...moved, approvalMac: kept.get(id) } : moved;
      },
      async get(id) {
        const row = await inner.get(id);
        return row && withKept(row);
      },
      async list(filter) {
        return (await inner.list(filter)).map(withKept);
      },
    };
    const withKept = (row: Proposal): Proposal =>
      kept.has(row.id) ? { ...row, approvalMac: kept.get(row.id) } : row;
    const { orchestrator, agent, text } = await setup({ proposals: keeping });
    const id = await runOnce(orchestrator);
    expect(text()).toContain('the proposal store keeps the approval MAC of an executed proposal');
    // The writer sets the state back: the row verifies (the MAC was kept), yet this gate ran it already.
    await inner.transition(id, 'executed', 'approved', {
      decidedBy: 'alice',
      at: '2030-01-01T10:00:00.000Z',
      approvalMac: kept.get(id)!,
    });
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(agent.calls).toHaveLength(1);
  });

  it('an approval the gate gave back (its call cancelled as it was consumed) can be given again and runs once', async () => {
    const proposals = createInMemoryProposalStore();
    const controller = new AbortController();
    const cancelling: ProposalStore = {
      ...proposals,
      async transition(id, from, to, decision) {
        const moved = await proposals.transition(id, from, to, decision);
        if (to === 'executed') controller.abort();
        return moved;
      },
    };
    const { orchestrator, agent } = await setup({ proposals: cancelling });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id, { decidedBy: 'alice' });
    expect(await orchestrator.executeProposal(id, { signal: controller.signal })).toMatchObject({
      ok: false,
      error_type: 'cancelled',
    });
    expect((await proposals.get(id))?.state).toBe('pending');
    // Same person, same (fixed) time: the same approval MAC as before, and it is a fresh decision.
    expect(await orchestrator.approveAndExecute(id, { decidedBy: 'alice' })).toMatchObject({ ok: true });
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(agent.calls).toHaveLength(1);
  });
});

describe('a cancelled call never reaches the approval step', () => {
  /** A status source that cancels the call while its status is being read. */
  function cancellingStatus(controller: AbortController): StatusSource {
    const source = createTestStatusSource();
    return {
      ...source,
      async load(who) {
        controller.abort();
        return source.load(who);
      },
    };
  }

  it('a call whose signal is already aborted creates no proposal', async () => {
    const { orchestrator, agent } = await setup();
    const result = await orchestrator.execute(
      'remote_delete',
      { text: 'r1' },
      { subject, signal: AbortSignal.abort() },
    );
    expect(await orchestrator.listProposals()).toEqual([]);
    expect(agent.calls).toHaveLength(0);
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
  });

  it('a call cancelled while its status was read creates no proposal', async () => {
    const controller = new AbortController();
    const { orchestrator, agent } = await setup({ statusSource: cancellingStatus(controller) });
    const result = await orchestrator.execute(
      'remote_delete',
      { text: 'r1' },
      { subject, signal: controller.signal },
    );
    expect(await orchestrator.listProposals()).toEqual([]);
    expect(agent.calls).toHaveLength(0);
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
  });

  it('a call cancelled while the gate read the proposals creates no proposal', async () => {
    const proposals = createInMemoryProposalStore();
    const controller = new AbortController();
    const cancelling: ProposalStore = {
      ...proposals,
      async list(filter) {
        controller.abort();
        return proposals.list(filter);
      },
    };
    const { orchestrator } = await setup({ proposals: cancelling });
    const result = await orchestrator.execute(
      'remote_delete',
      { text: 'r1' },
      { subject, signal: controller.signal },
    );
    expect(await proposals.list()).toEqual([]);
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
  });

  it('a repeat of an approved call cancelled while its status was read leaves the approval unused', async () => {
    const controller = new AbortController();
    const statusSource = createTestStatusSource();
    let cancelOnLoad = false;
    const { orchestrator, agent } = await setup({
      statusSource: {
        ...statusSource,
        async load(who) {
          if (cancelOnLoad) controller.abort();
          return statusSource.load(who);
        },
      },
    });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id, { decidedBy: 'alice' });
    cancelOnLoad = true;
    const result = await orchestrator.execute(
      'remote_delete',
      { text: 'r1' },
      { subject, signal: controller.signal },
    );
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
    expect((await orchestrator.listProposals()).map((proposal) => [proposal.id, proposal.state])).toEqual([
      [id, 'approved'],
    ]);
    cancelOnLoad = false;
    expect(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(agent.calls).toHaveLength(1);
  });
});
