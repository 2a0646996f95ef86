import type { Proposal } from '@patchbay/connector/ports';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { describe, expect, it } from 'vitest';
import { countStates, gateProposals, type LogLine, recordingLogger, withApprovals } from './gate-setup.js';

const proposal = (id: string, fields: Partial<Proposal> = {}): Proposal => ({
  id,
  subject: 'eval-user',
  tool: 'probe_delete',
  args: {},
  argsHash: 'hash',
  createdAt: '2026-11-21T15:00:00.000Z',
  state: 'pending',
  ...fields,
});

describe('the gate of a `gate:` run', () => {
  it('records what the orchestrator logs, through the child it makes', () => {
    const lines: LogLine[] = [];
    const logger = recordingLogger(lines) as { child(): { warn(fields: object, message: string): void } };
    logger.child().warn({ proposal_id: 'p1' }, 'proposal refused');
    expect(lines).toEqual([{ level: 'warn', message: 'proposal refused', fields: { proposal_id: 'p1' } }]);
  });

  it('keeps the approval MAC on an executed row only when told to', async () => {
    for (const [behaviour, kept] of [
      [undefined, undefined],
      ['keeps_approval_mac', 'mac'],
    ] as const) {
      const { store } = gateProposals(behaviour);
      await store.create(proposal('p1'));
      await store.transition('p1', 'pending', 'approved', {
        at: '2026-11-21T15:01:00.000Z',
        approvalMac: 'mac',
      });
      const executed = await store.transition('p1', 'approved', 'executed', {});
      expect(executed?.state).toBe('executed');
      expect(executed?.approvalMac).toBe(kept);
    }
  });

  it('loses every approval to another instance with `loses_race`', async () => {
    const { store } = gateProposals('loses_race');
    await store.create(proposal('p1', { state: 'approved' }));
    expect(await store.transition('p1', 'approved', 'executed', {})).toBeUndefined();
    expect((await store.get('p1'))?.state).toBe('executed');
  });

  it('lists without the tool filter with `ignores_tool_filter`, and runs a one-shot hook after a listing', async () => {
    const plain = gateProposals(undefined);
    const ignoring = gateProposals('ignores_tool_filter');
    for (const { store } of [plain, ignoring]) {
      await store.create(proposal('p1'));
      await store.create(proposal('p2', { tool: 'probe_wipe' }));
    }
    expect(await plain.store.list({ tool: 'probe_wipe' })).toHaveLength(1);
    expect(await ignoring.store.list({ tool: 'probe_wipe' })).toHaveLength(2);
    let fired = 0;
    plain.onList(() => {
      fired += 1;
    });
    await plain.store.list({});
    await plain.store.list({});
    expect(fired).toBe(1);
  });

  it('edits rows as a writer to the database would', async () => {
    const gate = gateProposals(undefined);
    await gate.store.create(proposal('p1', { state: 'executed', approvalMac: 'mac' }));
    await gate.setProposal('p1', { state: 'approved', approvalMac: null });
    expect(await gate.store.get('p1')).toMatchObject({ state: 'approved' });
    expect((await gate.store.get('p1'))?.approvalMac).toBeUndefined();
  });

  it('returns the refusal of an approval policy it was told to expect, and a gate without the policy', () => {
    const options = { statusSource: createInMemoryStatusSource() };
    const refused = withApprovals(createOrchestrator, options, {
      approvals: { default: 'everything' },
      refused: true,
    });
    expect(refused.refusal).toEqual({
      error_code: 'invalid_definition',
      message: 'approvals.default: must be "destructive" or "writes"',
    });
    expect(refused.made).toBeDefined();
    expect(
      withApprovals(createOrchestrator, options, { approvals: { default: 'writes' }, refused: true }).refusal,
    ).toBeNull();
  });

  it('counts proposals by state', () => {
    expect(countStates([proposal('a'), proposal('b'), proposal('c', { state: 'expired' })])).toEqual({
      pending: 2,
      expired: 1,
    });
  });
});
