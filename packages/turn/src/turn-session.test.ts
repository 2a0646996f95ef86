import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createTurnFixtureConnectors } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createTurnSession, type SessionEvent } from './turn-session.js';

const sent: { tool: string; input: unknown }[] = [];

const connectors = createTurnFixtureConnectors(sent);

async function setup() {
  sent.length = 0;
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  const events: SessionEvent[] = [];
  const session = createTurnSession({
    subject: 'ana',
    orchestrator,
    connectors,
    statusSource,
    onEvent: (event) => events.push(event),
    now: () => new Date('2026-11-21T15:00:00Z'),
  });
  return { statusSource, orchestrator, session, events };
}

describe('createTurnSession', () => {
  it('captures status fresh at every step and offers only runnable tools', async () => {
    const { statusSource, session } = await setup();
    const first = await session.prepareStep();
    expect(first.activeTools).toEqual([
      'tracker_create_issue',
      'tracker_delete_issue',
      'refresh_connector_status',
    ]);
    expect(first.context).toContain('<connector_status captured_at="2026-11-21T15:00:00Z">');
    expect(first.connectorStatus.chat?.status).toBe('not_configured');
    statusSource.connect('ana', 'chat', { credentials: { token: 'chat-secret-1' } });
    const second = await session.prepareStep();
    expect(second.activeTools).toContain('chat_post_message');
    expect(second.connectorStatus.chat?.status).toBe('connected');
  });

  it('answers a call of a tool not offered now without running it, with what setting it up would take', async () => {
    const { session } = await setup();
    await session.prepareStep();
    const result = await session.call('chat_post_message', { channel: 'x', text: 'hi' });
    expect(result.sent).toBe(false);
    expect(result.skipped).toBe('not_offered');
    expect(result.envelope).toMatchObject({ ok: false, error_type: 'connector_not_configured' });
    expect(sent).toEqual([]);
  });

  it('runs a call through the gate once and never sends the identical call twice', async () => {
    const { session } = await setup();
    await session.prepareStep();
    const first = await session.call('tracker_create_issue', { project: 'WEB', title: 'Broken' });
    expect(first.envelope).toMatchObject({ ok: true, data: { key: 'WEB-1' } });
    const again = await session.call('tracker_create_issue', { project: 'WEB', title: 'Broken' });
    expect(again.skipped).toBe('duplicate');
    expect(sent).toHaveLength(1);
  });

  it('attaches retry guidance to an invalid call, and hands the turn to the user when attempts run out', async () => {
    const { session } = await setup();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const plan = await session.prepareStep();
      expect(plan.askUser).toBeUndefined();
      const result = await session.call('tracker_create_issue', { project: 'WEB', title: `x${attempt}` });
      expect(result.envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
      expect((result.output as { retry_guidance?: string }).retry_guidance).toContain('<retry_guidance');
    }
    const plan = await session.prepareStep();
    expect(plan.askUser).toBeDefined();
    expect(plan.activeTools).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('reports the gate as deciding approvals, and runs an approved call once in the approver name', async () => {
    const { session, orchestrator, events } = await setup();
    await session.prepareStep();
    expect(session.needsApproval('tracker_delete_issue')).toBe(true);
    expect(session.needsApproval('tracker_create_issue')).toBe(false);
    const unapproved = await session.call('tracker_delete_issue', { key: 'WEB-1' });
    expect(unapproved.proposalId).toEqual(expect.any(String));
    expect(sent).toEqual([]);
    expect(events.some((event) => event.type === 'approval-requested')).toBe(true);
    await session.propose('tracker_delete_issue', { key: 'WEB-2' });
    const approved = await session.call('tracker_delete_issue', { key: 'WEB-2' }, { approvedBy: 'ana' });
    expect(approved.envelope).toMatchObject({ ok: true, data: { deleted: 'WEB-2' } });
    expect(sent).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-2' } }]);
    const proposals = await orchestrator.listProposals({ subject: 'ana' });
    expect(proposals.find((proposal) => proposal.state === 'executed')?.decidedBy).toBe('ana');
  });

  it('never runs an approval twice: a replayed approval finds nothing pending and runs nothing', async () => {
    const { session, orchestrator, statusSource } = await setup();
    await session.prepareStep();
    await session.propose('tracker_delete_issue', { key: 'WEB-6' });
    await session.call('tracker_delete_issue', { key: 'WEB-6' }, { approvedBy: 'ana', toolCallId: 'c1' });
    expect(sent).toHaveLength(1);
    // The same approved request sent again, in a new session (a new HTTP request, a second tab).
    const replay = createTurnSession({ subject: 'ana', orchestrator, connectors, statusSource });
    await replay.prepareStep();
    const again = await replay.call(
      'tracker_delete_issue',
      { key: 'WEB-6' },
      { approvedBy: 'ana', toolCallId: 'c1' },
    );
    expect(again.envelope).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(again.sent).toBe(false);
    // An approval for a call that was never proposed does not make and approve a proposal either.
    const unproposed = await replay.call('tracker_delete_issue', { key: 'WEB-7' }, { approvedBy: 'ana' });
    expect(unproposed.envelope).toMatchObject({ ok: false, error_type: 'conflict' });
    expect(sent).toHaveLength(1);
    expect(await orchestrator.listProposals({ subject: 'ana', state: 'pending' })).toEqual([]);
  });

  it('proposes a call a framework pauses on: the proposal exists, nothing runs, the approved call runs it once', async () => {
    const { session, orchestrator } = await setup();
    await session.prepareStep();
    const proposed = await session.propose('tracker_delete_issue', { key: 'WEB-5' });
    expect(proposed.proposalId).toEqual(expect.any(String));
    expect(sent).toEqual([]);
    const pending = await orchestrator.listProposals({ subject: 'ana', state: 'pending' });
    expect(pending.map((proposal) => proposal.id)).toEqual([proposed.proposalId]);
    const ran = await session.call('tracker_delete_issue', { key: 'WEB-5' }, { approvedBy: 'ana' });
    expect(ran.envelope.ok).toBe(true);
    expect(sent).toEqual([{ tool: 'tracker_delete_issue', input: { key: 'WEB-5' } }]);
    const executed = await orchestrator.listProposals({ subject: 'ana', state: 'executed' });
    expect(executed.map((proposal) => proposal.id)).toEqual([proposed.proposalId]);
    // A write the gate does not hold for a person is not proposed.
    expect((await session.propose('tracker_create_issue', { project: 'WEB', title: 'Broken' })).sent).toBe(
      false,
    );
    expect(sent).toHaveLength(1);
  });

  it('decides a pending proposal: rejected never runs, approved runs once', async () => {
    const { session } = await setup();
    await session.prepareStep();
    const pending = await session.call('tracker_delete_issue', { key: 'WEB-3' });
    const rejected = await session.decide(pending.proposalId!, { approved: false, reason: 'not now' });
    expect(rejected.envelope).toMatchObject({ ok: false, error_type: 'approval_denied' });
    expect(sent).toEqual([]);
    const again = await session.call('tracker_delete_issue', { key: 'WEB-4' });
    const approved = await session.decide(again.proposalId!, { approved: true, decidedBy: 'ana' });
    expect(approved.envelope.ok).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it('lists every tool it could offer, each with whether it needs approval', async () => {
    const { session } = await setup();
    const tools = await session.allTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'chat_post_message',
      'refresh_connector_status',
      'tracker_create_issue',
      'tracker_delete_issue',
    ]);
    expect(tools.find((tool) => tool.name === 'tracker_delete_issue')?.needsApproval).toBe(true);
  });

  it('goes on when the status source fails: the refresh tool only, the model told why, nothing run, no raw error', async () => {
    const { orchestrator } = await setup();
    let failing = true;
    const statusSource = createInMemoryStatusSource();
    statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
    const load = statusSource.load.bind(statusSource);
    statusSource.load = async (subject) => {
      if (failing) throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db/patchbay');
      return load(subject);
    };
    const session = createTurnSession({ subject: 'ana', orchestrator, connectors, statusSource });
    const plan = await session.prepareStep();
    expect(plan.activeTools).toEqual(['refresh_connector_status']);
    expect(plan.context).toContain('could not be read');
    expect(JSON.stringify(plan)).not.toContain('hunter2');
    const refused = await session.call('tracker_create_issue', { project: 'WEB', title: 'Broken' });
    expect(refused.sent).toBe(false);
    const refresh = await session.call('refresh_connector_status', {});
    expect(refresh.envelope).toMatchObject({ ok: false, error_type: 'tool_unavailable', retryable: true });
    failing = false;
    expect((await session.prepareStep()).activeTools).toContain('tracker_create_issue');
    expect(sent).toEqual([]);
  });
});
