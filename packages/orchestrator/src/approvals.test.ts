import type { ProposalStore } from '@patchbay/connector/ports';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  acmeConnection,
  captureLogger,
  createAcmeConnector,
  createAcmeServer,
  createCountingAgent,
  createTestStatusSource,
} from '../test/support.js';
import { argsHash } from './args-hash.js';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';
import { createOrchestrator } from './orchestrator.js';

const acme = createAcmeServer();
beforeAll(() => acme.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => acme.reset());
afterAll(() => acme.server.close());

const subject = 'user-1';

async function setup(proposals: ProposalStore = createInMemoryProposalStore()) {
  const statusSource = createTestStatusSource();
  statusSource.connect(subject, acmeConnection());
  const orchestrator = createOrchestrator({ statusSource, connectors: [createAcmeConnector()], proposals });
  await orchestrator.start();
  return { orchestrator, proposals };
}

const deletes = () => acme.requests.filter((request) => request.method === 'DELETE').length;

function proposalIdOf(envelope: { ok: boolean; proposal_id?: string }): string {
  expect(envelope).toMatchObject({ ok: false, error_type: 'approval_required' });
  return envelope.proposal_id!;
}

describe('approval of destructive calls', () => {
  it('creates a proposal instead of running a destructive tool', async () => {
    const { orchestrator, proposals } = await setup();
    const result = await orchestrator.execute(
      'acme_delete_ticket',
      { id: 'T-1' },
      { subject, correlationId: 'corr-9' },
    );
    const id = proposalIdOf(result);
    expect(deletes()).toBe(0);
    const proposal = await proposals.get(id);
    expect(proposal).toMatchObject({
      tool: 'acme_delete_ticket',
      args: { id: 'T-1' },
      argsHash: argsHash({ id: 'T-1' }),
      subject,
      state: 'pending',
      correlationId: 'corr-9',
    });
    expect(Date.parse(proposal!.createdAt)).not.toBeNaN();
    // Asking again while pending points at the same proposal.
    expect(proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }))).toBe(
      id,
    );
  });

  it('runs an approved call once; the next identical call needs a new proposal', async () => {
    const { orchestrator, proposals } = await setup();
    const id = proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }));
    const approved = await orchestrator.approve(id, { decidedBy: 'alice' });
    expect(approved).toMatchObject({ state: 'approved', decidedBy: 'alice' });
    const result = await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject });
    expect(result).toMatchObject({ ok: true, data: { deleted: 'T-1' } });
    expect(deletes()).toBe(1);
    expect((await proposals.get(id))?.state).toBe('executed');
    const again = proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }));
    expect(again).not.toBe(id);
    expect(deletes()).toBe(1);
  });

  it('matches arguments canonically: key order does not matter, different values do', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent({
      tools: [
        {
          name: 'remote_move',
          effect: 'destructive',
          inputJsonSchema: {
            type: 'object',
            properties: {
              from: { type: 'string', description: 'Source' },
              to: { type: 'string', description: 'Target' },
            },
            required: ['from', 'to'],
          },
        },
      ],
    });
    orchestrator.register(agent);
    await orchestrator.start();
    const id = proposalIdOf(await orchestrator.execute('remote_move', { from: 'a', to: 'b' }, { subject }));
    await orchestrator.approve(id);
    const tampered = await orchestrator.execute('remote_move', { from: 'a', to: 'elsewhere' }, { subject });
    expect(proposalIdOf(tampered)).not.toBe(id);
    expect(agent.calls).toHaveLength(0);
    expect(await orchestrator.execute('remote_move', { to: 'b', from: 'a' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(agent.calls).toHaveLength(1);
  });

  it('does not run an approval for another subject', async () => {
    const { orchestrator } = await setup();
    const id = proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }));
    await orchestrator.approve(id);
    const otherSubject = await orchestrator.execute(
      'acme_delete_ticket',
      { id: 'T-1' },
      { subject: 'user-2' },
    );
    expect(otherSubject).toMatchObject({ ok: false, error_type: 'connector_not_configured' });
    expect(deletes()).toBe(0);
  });

  it('reject → the next identical call answers approval_denied with the reason, once', async () => {
    const { orchestrator, proposals } = await setup();
    const id = proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }));
    const rejected = await orchestrator.reject(id, { reason: 'keep that ticket', decidedBy: 'bob' });
    expect(rejected).toMatchObject({ state: 'rejected', reason: 'keep that ticket', decidedBy: 'bob' });
    const denied = await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject });
    expect(denied).toMatchObject({ ok: false, error_type: 'approval_denied' });
    if (!denied.ok) expect(denied.user_message).toContain('keep that ticket');
    expect(deletes()).toBe(0);
    expect((await proposals.get(id))?.state).toBe('expired');
    expect(
      proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject })),
    ).not.toBe(id);
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
  });

  it('two concurrent executions of one approval run it once', async () => {
    const { orchestrator } = await setup();
    const id = proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }));
    await orchestrator.approve(id);
    const results = await Promise.all([
      orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }),
      orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }),
      orchestrator.executeProposal(id),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(deletes()).toBe(1);
  });

  it('executeProposal runs an approved proposal and refuses pending, used and unknown ones', async () => {
    const { orchestrator } = await setup();
    const id = proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }));
    expect(await orchestrator.executeProposal(id)).toMatchObject({
      ok: false,
      error_type: 'approval_required',
      proposal_id: id,
    });
    await orchestrator.approve(id);
    const result = await orchestrator.executeProposal(id, { correlationId: 'from-cli' });
    expect(result).toMatchObject({
      ok: true,
      meta: { correlation_id: 'from-cli', tool: 'acme_delete_ticket' },
    });
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(await orchestrator.executeProposal('prop_missing')).toMatchObject({
      ok: false,
      error_type: 'not_found',
    });
    expect(deletes()).toBe(1);
    await expect(orchestrator.approve(id)).rejects.toMatchObject({ code: 'proposal_not_pending' });
    await expect(orchestrator.approve('prop_missing')).rejects.toMatchObject({ code: 'proposal_not_found' });
  });

  it('refuses a proposal whose stored arguments were altered after approval', async () => {
    const store = createInMemoryProposalStore();
    // A store whose copy of the arguments was edited behind our back (e.g. in the database).
    const tamperingStore: ProposalStore = {
      ...store,
      async get(id) {
        const proposal = await store.get(id);
        return proposal ? { ...proposal, args: { id: 'T-999' } } : undefined;
      },
    };
    const { orchestrator } = await setup(tamperingStore);
    const id = proposalIdOf(await orchestrator.execute('acme_delete_ticket', { id: 'T-1' }, { subject }));
    // Approving checks the proposal first: the edited copy is refused and voided.
    await expect(orchestrator.approve(id)).rejects.toMatchObject({ code: 'proposal_tampered' });
    expect(await orchestrator.executeProposal(id)).toMatchObject({ ok: false, error_type: 'conflict' });
    expect((await store.get(id))?.state).toBe('expired');
    expect(deletes()).toBe(0);
  });

  it('does not ask approval for read and write tools of trusted agents', async () => {
    const { orchestrator } = await setup();
    expect(await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(await orchestrator.execute('acme_create_ticket', { title: 'New' }, { subject })).toMatchObject({
      ok: true,
    });
  });
});

describe('approval of untrusted and annotated tools', () => {
  it('untrusted agents need approval unless the tool is read-only', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent({
      trusted: false,
      tools: [
        { name: 'remote_read', annotations: { readOnlyHint: true } },
        { name: 'remote_write', effect: 'write', annotations: {} },
      ],
    });
    orchestrator.register(agent);
    await orchestrator.start();
    expect(await orchestrator.execute('remote_read', { text: 'a' }, { subject })).toMatchObject({ ok: true });
    const id = proposalIdOf(await orchestrator.execute('remote_write', { text: 'a' }, { subject }));
    expect(agent.calls).toHaveLength(1);
    await orchestrator.approve(id);
    expect(await orchestrator.execute('remote_write', { text: 'a' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(agent.calls.map((call) => call.toolName)).toEqual(['remote_read', 'remote_write']);
  });

  it('destructiveHint needs approval even from a trusted agent; a tool can override its agent trust', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent({
      trusted: true,
      tools: [
        { name: 'remote_wipe', effect: 'write', annotations: { destructiveHint: true } },
        { name: 'remote_untrusted', effect: 'write', annotations: {}, trusted: false },
      ],
    });
    orchestrator.register(agent);
    await orchestrator.start();
    proposalIdOf(await orchestrator.execute('remote_wipe', { text: 'a' }, { subject }));
    proposalIdOf(await orchestrator.execute('remote_untrusted', { text: 'a' }, { subject }));
    expect(agent.calls).toHaveLength(0);
  });
});

describe('definition pinning', () => {
  it('a changed definition of a destructive tool voids approvals and is logged', async () => {
    const { logger, text } = captureLogger();
    const proposals = createInMemoryProposalStore();
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource(), proposals, logger });
    const agent = createCountingAgent({
      trusted: true,
      tools: [{ name: 'remote_delete', effect: 'destructive', description: 'Deletes one record.' }],
    });
    orchestrator.register(agent);
    await orchestrator.start();
    const approvedId = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    const pendingId = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r2' }, { subject }));
    await orchestrator.approve(approvedId);
    // The server now describes the tool differently (list_changed).
    agent.setTools([{ ...agent.tools()[0]!, description: 'Deletes every record.' }]);
    const result = await orchestrator.execute('remote_delete', { text: 'r1' }, { subject });
    const renewed = proposalIdOf(result);
    expect(renewed).not.toBe(approvedId);
    expect(agent.calls).toHaveLength(0);
    expect((await proposals.get(approvedId))?.state).toBe('expired');
    expect((await proposals.get(pendingId))?.state).toBe('expired');
    expect(text()).toContain('definition of tool \\"remote_delete\\" changed');
    await orchestrator.approve(renewed);
    expect(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(agent.calls).toHaveLength(1);
  });

  it('a destructive tool re-announced as read-only still needs approval', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent({
      trusted: false,
      tools: [{ name: 'remote_delete', effect: 'destructive', annotations: { destructiveHint: true } }],
    });
    orchestrator.register(agent);
    await orchestrator.start();
    proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    // The server claims the same tool is now harmless (list_changed), hoping to skip the gate.
    agent.setTools([{ ...agent.tools()[0]!, effect: 'read', annotations: { readOnlyHint: true } }]);
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    // ...and again, once the changed definition is the pinned one.
    agent.setTools([{ ...agent.tools()[0]! }]);
    expect(proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }))).toBe(id);
    expect(agent.calls).toHaveLength(0);
    await orchestrator.approve(id);
    expect(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(agent.calls).toHaveLength(1);
  });

  it('an unchanged re-index keeps approvals valid', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent({ tools: [{ name: 'remote_delete', effect: 'destructive' }] });
    orchestrator.register(agent);
    await orchestrator.start();
    const id = proposalIdOf(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject }));
    await orchestrator.approve(id);
    agent.setTools([{ ...agent.tools()[0]! }]);
    expect(await orchestrator.execute('remote_delete', { text: 'r1' }, { subject })).toMatchObject({
      ok: true,
    });
  });
});
