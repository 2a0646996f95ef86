import type { AuditEntry, ProposalStore } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import {
  captureLogger,
  createCountingAgent,
  createTamperableProposalStore,
  createTestStatusSource,
} from '../test/support.js';
import type { AgentTool } from './agent.js';
import { argsHash } from './args-hash.js';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';
import { createOrchestrator, type OrchestratorOptions } from './orchestrator.js';

const subject = 'user-1';
const key = new Uint8Array(32).fill(5);

const deleteTool: Partial<AgentTool> = {
  name: 'remote_delete',
  effect: 'destructive',
  description: 'Deletes one record.',
};
const archiveTool: Partial<AgentTool> = {
  name: 'remote_archive',
  effect: 'destructive',
  description: 'Archives one record.',
};

function proposalIdOf(envelope: { ok: boolean; proposal_id?: string }): string {
  expect(envelope).toMatchObject({ ok: false, error_type: 'approval_required' });
  return envelope.proposal_id!;
}

async function setup(options: Partial<OrchestratorOptions> & { proposals?: ProposalStore } = {}) {
  const audit: AuditEntry[] = [];
  const { logger, text } = captureLogger();
  const clock = { now: new Date('2030-01-01T10:00:00.000Z') };
  const statusSource = createTestStatusSource();
  const orchestrator = createOrchestrator({
    statusSource,
    proposals: createInMemoryProposalStore(),
    proposalKey: key,
    audit: { append: async (entry) => void audit.push(entry) },
    logger,
    now: () => clock.now,
    ...options,
  });
  const agent = createCountingAgent({ id: 'records', tools: [deleteTool, archiveTool] });
  orchestrator.register(agent);
  await orchestrator.start();
  const advance = (milliseconds: number) => {
    clock.now = new Date(clock.now.getTime() + milliseconds);
  };
  return { orchestrator, agent, audit, text, advance, statusSource };
}

describe('proposals bound by a MAC', () => {
  it('signs what a person approves: subject, tool, owner, arguments, time, definition', async () => {
    const proposals = createTamperableProposalStore();
    const { orchestrator } = await setup({ proposals });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    expect(proposals.row(id)).toMatchObject({
      owner: 'records',
      mac: expect.stringMatching(/^[\w-]{43}$/),
      definitionHash: expect.any(String),
    });
    // The key itself is never part of the row.
    expect(JSON.stringify(proposals.row(id))).not.toContain(Buffer.from(key).toString('base64url'));
  });

  const rewrites: [string, (id: string) => Record<string, unknown>][] = [
    ['arguments and their hash', () => ({ args: { text: 'r999' }, argsHash: argsHash({ text: 'r999' }) })],
    ['subject', () => ({ subject: 'user-2' })],
    ['tool', () => ({ tool: 'remote_archive' })],
    ['owner', () => ({ owner: 'someone-else' })],
    ['creation time', () => ({ createdAt: '2030-01-01T09:59:59.000Z' })],
    ['MAC removed', () => ({ mac: undefined })],
  ];
  for (const [what, patch] of rewrites) {
    it(`refuses, voids and audits a proposal whose ${what} was rewritten after approval`, async () => {
      const proposals = createTamperableProposalStore();
      const { orchestrator, agent, audit, text } = await setup({ proposals });
      const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
      await orchestrator.approve(id, { decidedBy: 'alice' });
      proposals.tamper(id, patch(id));
      const result = await orchestrator.executeProposal(id);
      expect(result).toMatchObject({ ok: false, error_type: 'conflict' });
      if (!result.ok) expect(result.user_message).toMatch(/was changed after it was proposed or approved/);
      expect(agent.calls).toHaveLength(0);
      expect(proposals.row(id)?.state).toBe('expired');
      expect(audit).toEqual([expect.objectContaining({ event: 'proposal_tampered', proposal_id: id })]);
      expect(text()).toContain('proposal refused: it was changed after it was made');
      // Voided for good: running it again is refused, and nothing ran.
      expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
      expect(agent.calls).toHaveLength(0);
    });
  }

  it('a pending row flipped to approved in storage (no approval MAC) authorises nothing', async () => {
    const proposals = createTamperableProposalStore();
    const { orchestrator, agent, audit } = await setup({ proposals });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    proposals.tamper(id, { state: 'approved', decidedAt: '2030-01-01T10:00:00.000Z', decidedBy: 'alice' });
    // The model's identical call does not run it; the forged approval is voided and a new proposal made.
    const again = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    expect(again).not.toBe(id);
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(agent.calls).toHaveLength(0);
    expect(audit.map((entry) => entry.event)).toEqual(['proposal_tampered']);
  });

  it('an approval copied onto another proposal (arguments hash redirected) authorises nothing', async () => {
    const proposals = createTamperableProposalStore();
    const { orchestrator, agent } = await setup({ proposals });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'harmless' }, { subject }));
    await orchestrator.approve(id);
    // Keep the signed arguments, point the unsigned hash at the call the attacker wants to run.
    proposals.tamper(id, { argsHash: argsHash({ text: 'everything' }) });
    proposalIdOf(await orchestrator.execute('remote_delete', { text: 'everything' }, { subject }));
    expect(agent.calls).toHaveLength(0);
  });

  it('verifies across orchestrators that share the store and key, and refuses under another key', async () => {
    const proposals = createInMemoryProposalStore();
    const first = await setup({ proposals });
    const second = await setup({ proposals });
    const id = proposalIdOf(await first.orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    expect(await second.orchestrator.approveAndExecute(id)).toMatchObject({ ok: true });
    expect(second.agent.calls).toHaveLength(1);

    const other = await setup({ proposals, proposalKey: new Uint8Array(32).fill(6) });
    const foreign = proposalIdOf(
      await first.orchestrator.execute('remote_delete', { text: 'r2' }, { subject }),
    );
    await expect(other.orchestrator.approve(foreign)).rejects.toMatchObject({ code: 'proposal_tampered' });
    expect(other.agent.calls).toHaveLength(0);
  });

  it('keeps a proposal made before a key rotation: approved and run once under the new key, with the old one as previous', async () => {
    const proposals = createInMemoryProposalStore();
    const before = await setup({ proposals });
    const id = proposalIdOf(await before.orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    const rotated = new Uint8Array(32).fill(7);
    // After the rotation, without the old key: refused as tampered, nothing runs.
    const forgetful = await setup({ proposals, proposalKey: rotated });
    await expect(forgetful.orchestrator.approve(id)).rejects.toMatchObject({ code: 'proposal_tampered' });
    expect(forgetful.agent.calls).toHaveLength(0);
    // With it as a previous key (from the store's previousMacKeys()), the person's approval stands.
    const id2 = proposalIdOf(await before.orchestrator.execute('remote_delete', { text: 'r2' }, { subject }));
    const store: ProposalStore = { ...proposals, previousMacKeys: () => [key] };
    const after = await setup({ proposals: store, proposalKey: rotated });
    expect(await after.orchestrator.approveAndExecute(id2)).toMatchObject({ ok: true });
    expect(await after.orchestrator.approveAndExecute(id2).catch((error) => error.code)).toBe(
      'proposal_not_pending',
    );
    expect(after.agent.calls).toHaveLength(1);
    // A proposal signed with no key the orchestrator holds is still refused.
    const stranger = await setup({ proposals, proposalKey: new Uint8Array(32).fill(9) });
    const id3 = proposalIdOf(
      await stranger.orchestrator.execute('remote_delete', { text: 'r3' }, { subject }),
    );
    await expect(after.orchestrator.approve(id3)).rejects.toMatchObject({ code: 'proposal_tampered' });
  });

  it("uses the store's macKey(), and warns when a store of its own comes without a key", async () => {
    const inner = createInMemoryProposalStore();
    const keyed: ProposalStore = { ...inner, macKey: () => key };
    const withStoreKey = await setup({ proposals: keyed, proposalKey: undefined });
    const withOption = await setup({ proposals: keyed });
    const id = proposalIdOf(
      await withStoreKey.orchestrator.execute('remote_delete', { text: 'r1' }, { subject }),
    );
    expect(await withOption.orchestrator.approveAndExecute(id)).toMatchObject({ ok: true });

    const unkeyed = await setup({ proposals: inner, proposalKey: undefined });
    proposalIdOf(await unkeyed.orchestrator.execute('remote_delete', { text: 'r2' }, { subject }));
    expect(unkeyed.text()).toContain('proposals are signed with a key of this process only');
    expect(withStoreKey.text()).not.toContain('key of this process only');
  });

  it('refuses a proposal key shorter than 16 bytes', async () => {
    const { orchestrator } = await setup({ proposalKey: new Uint8Array(8) });
    expect(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject })).toMatchObject({
      ok: false,
      error_type: 'internal_error',
    });
  });
});

describe('approving checks the call can start; no approval is left unrun', () => {
  it('approve refuses while the tool cannot start, and the proposal stays pending', async () => {
    const { orchestrator, agent } = await setup();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.stopAgent('records');
    await expect(orchestrator.approve(id)).rejects.toMatchObject({ code: 'tool_unavailable' });
    expect((await orchestrator.listProposals({ state: 'pending' })).map((item) => item.id)).toEqual([id]);
    await orchestrator.startAgent('records');
    expect(await orchestrator.approveAndExecute(id)).toMatchObject({ ok: true });
    expect(agent.calls).toHaveLength(1);
  });

  it('approveAndExecute with the server down answers tool_unavailable and leaves the proposal approvable', async () => {
    const { orchestrator, agent } = await setup();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.stopAgent('records');
    const down = await orchestrator.approveAndExecute(id, { decidedBy: 'alice' });
    expect(down).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
    expect((await orchestrator.listProposals({ subject }))[0]).toMatchObject({ id, state: 'pending' });
    // While it is pending, the next identical call does not run: it is still waiting for approval.
    await orchestrator.startAgent('records');
    expect(proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }))).toBe(id);
    expect(agent.calls).toHaveLength(0);
    // A second approve is accepted and runs it, once.
    expect(await orchestrator.approveAndExecute(id, { decidedBy: 'alice' })).toMatchObject({ ok: true });
    await expect(orchestrator.approveAndExecute(id)).rejects.toMatchObject({ code: 'proposal_not_pending' });
    expect(agent.calls).toHaveLength(1);
  });

  it('an approved proposal whose tool went down before it ran returns to pending', async () => {
    const { orchestrator, agent } = await setup();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id);
    await orchestrator.stopAgent('records');
    const result = await orchestrator.executeProposal(id);
    expect(result).toMatchObject({ ok: false, error_type: 'tool_unavailable' });
    if (!result.ok) expect(result.user_message).toContain(`Proposal ${id} was not used; it is pending`);
    const [proposal] = await orchestrator.listProposals({ subject });
    expect(proposal).toMatchObject({ id, state: 'pending' });
    expect(proposal?.decidedAt).toBeUndefined();
    await orchestrator.startAgent('records');
    // The earlier approval no longer counts: the identical call waits for a person again.
    proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    expect(agent.calls).toHaveLength(0);
  });

  it('a call cancelled while the gate consumed its approval does not start and gives the approval back', async () => {
    const proposals = createInMemoryProposalStore();
    const controller = new AbortController();
    // The cancel lands while the approval is being consumed (after the gate's earlier checks).
    const cancellingStore: ProposalStore = {
      ...proposals,
      async transition(id, from, to, decision) {
        const moved = await proposals.transition(id, from, to, decision);
        if (to === 'executed') controller.abort();
        return moved;
      },
    };
    const { orchestrator, agent } = await setup({ proposals: cancellingStore });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id);
    const result = await orchestrator.executeProposal(id, { signal: controller.signal });
    expect(result).toMatchObject({ ok: false, error_type: 'cancelled' });
    expect(agent.calls).toHaveLength(0);
    expect((await proposals.get(id))?.state).toBe('pending');
  });

  it('approve refuses when the subject status refuses the call (connector rate limited)', async () => {
    const { orchestrator, statusSource } = await setup();
    const agent = createCountingAgent({
      id: 'acme-like',
      tools: [{ name: 'acme_like_delete', effect: 'destructive', connectorId: 'acme' }],
    });
    orchestrator.register(agent);
    await orchestrator.startAgent('acme-like');
    statusSource.connect(subject, { connectorId: 'acme', credentials: { token: 't' }, scopes: [] });
    const id = proposalIdOf(await orchestrator.execute('acme_like_delete', { text: 'x' }, { subject }));
    await statusSource.markRateLimited(subject, 'acme', '2030-01-01T11:00:00.000Z');
    await expect(orchestrator.approve(id)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await orchestrator.approveAndExecute(id)).toMatchObject({ ok: false, error_type: 'rate_limited' });
    expect((await orchestrator.listProposals({ subject, state: 'pending' })).map((item) => item.id)).toEqual([
      id,
    ]);
    expect(agent.calls).toHaveLength(0);
  });
});

describe('approvals expire', () => {
  it('an approval not used within approvalTtlMs authorises nothing (default 15 minutes)', async () => {
    const { orchestrator, agent, advance } = await setup();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id);
    advance(15 * 60_000 + 1);
    const renewed = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    expect(renewed).not.toBe(id);
    const stale = await orchestrator.executeProposal(id);
    expect(stale).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(agent.calls).toHaveLength(0);
    expect((await orchestrator.listProposals({ state: 'expired' })).map((item) => item.id)).toEqual([id]);
  });

  it('executeProposal of an approval past its time says it expired', async () => {
    const { orchestrator, agent, advance } = await setup({ approvalTtlMs: 60_000 });
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id);
    advance(30_000);
    advance(30_001);
    const result = await orchestrator.executeProposal(id);
    expect(result).toMatchObject({ ok: false, error_type: 'conflict' });
    if (!result.ok)
      expect(result.user_message).toMatch(
        /approval of proposal .* expired \(approvals are valid for 1 minute\)/,
      );
    expect(agent.calls).toHaveLength(0);
  });

  it('a pending proposal can be approved within proposalTtlMs only (default 24 hours)', async () => {
    const { orchestrator, agent, advance } = await setup();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    advance(24 * 60 * 60_000 + 1);
    await expect(orchestrator.approve(id)).rejects.toMatchObject({ code: 'proposal_expired' });
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    // The model asking again gets a fresh proposal rather than the stale one.
    expect(proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }))).not.toBe(
      id,
    );
    expect(agent.calls).toHaveLength(0);
  });

  it('an approval within its time still runs once', async () => {
    const { orchestrator, agent, advance } = await setup();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id);
    advance(14 * 60_000);
    expect(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(agent.calls).toHaveLength(1);
  });
});

describe('owner binding', () => {
  it('an approval does not carry over to another agent that now serves the same tool name', async () => {
    const { orchestrator, agent } = await setup();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id);
    await orchestrator.unregister('records');
    const impostor = createCountingAgent({ id: 'impostor', tools: [deleteTool] });
    orchestrator.register(impostor);
    await orchestrator.startAgent('impostor');
    const renewed = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    expect(renewed).not.toBe(id);
    expect(impostor.calls).toHaveLength(0);
    expect(agent.calls).toHaveLength(0);
  });
});
