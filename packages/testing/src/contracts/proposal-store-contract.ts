import type { Proposal, ProposalStore } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, together, useHarness } from './contract-harness.js';

/** A {@link ProposalStore} under test. */
export interface ProposalStoreHarness extends HarnessLifecycle {
  /** The implementation under test, empty. */
  store: ProposalStore;
  /**
   * Another handle on the same data, as a second process would open it. Without it the tests
   * that need one are reported as skipped. `close` closes it too.
   */
  reopen?: () => Awaitable<ProposalStore>;
}

/** A pending proposal as the gate creates one; `overrides` change any field. */
function proposal(id: string, overrides: Partial<Proposal> = {}): Proposal {
  return {
    id,
    subject: 'ana',
    tool: 'tracker_delete_issue',
    args: { key: 'WEB-7', options: { notify: true, labels: ['bug', 'ui'] } },
    argsHash: 'f1e2d3c4b5a6978877665544332211000102030405060708090a0b0c0d0e0f10',
    createdAt: '2026-11-21T15:00:00.000Z',
    state: 'pending',
    ...overrides,
  };
}

const ids = (proposals: readonly Proposal[]) => proposals.map((item) => item.id).sort();
const concurrentCallers = 12;

/**
 * Registers the contract every {@link ProposalStore} meets: a proposal reads back exactly as
 * created, ids are unique, `list` filters by subject, state and tool, `transition` is a compare-and-set,
 * so of several callers moving one proposal out of one state exactly one wins, and an executed
 * proposal keeps no approval MAC.
 * `setup` runs before each test (a fresh, empty store) and the harness's `close` after it.
 */
export function describeProposalStoreContract(
  name: string,
  setup: () => Awaitable<ProposalStoreHarness>,
): void {
  describe(`ProposalStore contract: ${name}`, () => {
    const harness = useHarness(setup);

    it('reads a proposal back exactly as it was created, every optional field included', async () => {
      const { store } = harness();
      const full = proposal('prop_full', { correlationId: 'corr-1', definitionHash: 'def-1' });
      await store.create(full);
      await store.create(proposal('prop_bare'));
      expect(await store.get('prop_full')).toEqual(full);
      expect(await store.get('prop_bare')).toEqual(proposal('prop_bare'));
    });

    it('answers undefined for an id it does not hold', async () => {
      const { store } = harness();
      await store.create(proposal('prop_1'));
      expect(await store.get('prop_unknown')).toBeUndefined();
    });

    it('rejects a second proposal with the same id and keeps the first', async () => {
      const { store } = harness();
      await store.create(proposal('prop_1'));
      await expect(store.create(proposal('prop_1', { subject: 'mallory', args: {} }))).rejects.toThrow();
      expect(await store.get('prop_1')).toEqual(proposal('prop_1'));
    });

    it('lists every proposal, or those matching every given filter field', async () => {
      const { store } = harness();
      await store.create(proposal('prop_a1'));
      await store.create(proposal('prop_a2', { state: 'approved', decidedAt: '2026-11-21T15:01:00.000Z' }));
      await store.create(proposal('prop_b1', { subject: 'bo' }));
      expect(ids(await store.list())).toEqual(['prop_a1', 'prop_a2', 'prop_b1']);
      expect(ids(await store.list({ subject: 'ana' }))).toEqual(['prop_a1', 'prop_a2']);
      expect(ids(await store.list({ state: 'pending' }))).toEqual(['prop_a1', 'prop_b1']);
      expect(ids(await store.list({ subject: 'ana', state: 'pending' }))).toEqual(['prop_a1']);
      expect(await store.list({ subject: 'carol' })).toEqual([]);
      expect((await store.list({ subject: 'bo' }))[0]).toEqual(proposal('prop_b1', { subject: 'bo' }));
    });

    it('lists by tool, alone and with the other fields (the gate expires one tool at a time)', async () => {
      const { store } = harness();
      await store.create(proposal('prop_del'));
      await store.create(proposal('prop_post', { tool: 'chat_post_message' }));
      await store.create(proposal('prop_post_bo', { tool: 'chat_post_message', subject: 'bo' }));
      expect(ids(await store.list({ tool: 'chat_post_message' }))).toEqual(['prop_post', 'prop_post_bo']);
      expect(ids(await store.list({ tool: 'chat_post_message', subject: 'bo', state: 'pending' }))).toEqual([
        'prop_post_bo',
      ]);
      expect(await store.list({ tool: 'tracker_close_issue' })).toEqual([]);
    });

    it('hands out copies, so changing a created or a read proposal changes nothing stored', async () => {
      const { store } = harness();
      const created = proposal('prop_1');
      await store.create(created);
      (created.args as { key: string }).key = 'changed';
      const read = await store.get('prop_1');
      (read!.args as { options: { labels: string[] } }).options.labels.push('changed');
      read!.state = 'approved';
      const [listed] = await store.list();
      listed!.subject = 'mallory';
      expect(await store.get('prop_1')).toEqual(proposal('prop_1'));
    });

    it('approves a pending proposal with the decision and returns it as stored', async () => {
      const { store } = harness();
      await store.create(proposal('prop_1'));
      const approved = await store.transition('prop_1', 'pending', 'approved', {
        decidedBy: 'ops@example.test',
        at: '2026-11-21T15:02:00.000Z',
      });
      expect(approved).toEqual({
        ...proposal('prop_1'),
        state: 'approved',
        decidedBy: 'ops@example.test',
        decidedAt: '2026-11-21T15:02:00.000Z',
      });
      expect(await store.get('prop_1')).toEqual(approved);
    });

    it('dates a decision made without a time with the current time', async () => {
      const { store } = harness();
      await store.create(proposal('prop_1'));
      const before = Date.now();
      const rejected = await store.transition('prop_1', 'pending', 'rejected', { reason: 'Not today.' });
      const decidedAt = Date.parse(rejected?.decidedAt ?? '');
      expect(rejected).toMatchObject({ state: 'rejected', reason: 'Not today.' });
      expect(decidedAt).toBeGreaterThanOrEqual(before - 1_000);
      expect(decidedAt).toBeLessThanOrEqual(Date.now() + 1_000);
    });

    it('keeps the decision when an approved proposal is executed, and records none on expiry', async () => {
      const { store } = harness();
      await store.create(proposal('prop_1'));
      await store.create(proposal('prop_2'));
      await store.transition('prop_1', 'pending', 'approved', {
        decidedBy: 'ops',
        at: '2026-11-21T15:02:00.000Z',
      });
      expect(await store.transition('prop_1', 'approved', 'executed')).toMatchObject({
        state: 'executed',
        decidedBy: 'ops',
        decidedAt: '2026-11-21T15:02:00.000Z',
      });
      const expired = await store.transition('prop_2', 'pending', 'expired');
      expect(expired?.state).toBe('expired');
      expect(expired?.decidedAt).toBeUndefined();
      expect(expired?.decidedBy).toBeUndefined();
    });

    it('keeps the approval’s MAC while approved and drops it once executed or pending again', async () => {
      const { store } = harness();
      const signed = { owner: 'connector:tracker', mac: 'proposal-mac' };
      await store.create(proposal('prop_1', signed));
      await store.create(proposal('prop_2', signed));
      for (const id of ['prop_1', 'prop_2']) {
        const approved = await store.transition(id, 'pending', 'approved', {
          decidedBy: 'ops',
          at: '2026-11-21T15:02:00.000Z',
          approvalMac: `approval-mac-${id}`,
        });
        expect(approved).toMatchObject({ ...signed, approvalMac: `approval-mac-${id}` });
      }
      // Used up: a row whose state is later set back to approved must carry no approval to replay.
      const executed = await store.transition('prop_1', 'approved', 'executed');
      expect(executed).toMatchObject({ ...signed, state: 'executed', decidedBy: 'ops' });
      expect(executed).not.toHaveProperty('approvalMac');
      expect(await store.get('prop_1')).not.toHaveProperty('approvalMac');
      const reopened = await store.transition('prop_2', 'approved', 'pending');
      expect(reopened).toMatchObject({ ...signed, state: 'pending' });
      for (const field of ['approvalMac', 'decidedAt', 'decidedBy']) {
        expect(reopened).not.toHaveProperty(field);
      }
    });

    it('refuses a transition from a state the proposal is no longer in, changing nothing', async () => {
      const { store } = harness();
      await store.create(proposal('prop_1'));
      await store.transition('prop_1', 'pending', 'rejected', { decidedBy: 'ops', reason: 'No.' });
      const stored = await store.get('prop_1');
      expect(
        await store.transition('prop_1', 'pending', 'approved', { decidedBy: 'mallory' }),
      ).toBeUndefined();
      expect(await store.transition('prop_1', 'approved', 'executed')).toBeUndefined();
      expect(await store.get('prop_1')).toEqual(stored);
      expect(ids(await store.list({ state: 'rejected' }))).toEqual(['prop_1']);
    });

    it('answers undefined for a transition of an unknown id and creates nothing', async () => {
      const { store } = harness();
      expect(await store.transition('prop_unknown', 'pending', 'approved')).toBeUndefined();
      expect(await store.get('prop_unknown')).toBeUndefined();
      expect(await store.list()).toEqual([]);
    });

    it(`lets exactly one of ${concurrentCallers} concurrent approvals win, and stores the winner’s decision`, async () => {
      const { store } = harness();
      await store.create(proposal('prop_1'));
      const results = await together(concurrentCallers, (index) =>
        store.transition('prop_1', 'pending', 'approved', { decidedBy: `approver-${index}` }),
      );
      const winners = results.filter((result) => result !== undefined);
      expect(winners).toHaveLength(1);
      expect((await store.get('prop_1'))?.decidedBy).toBe(winners[0]?.decidedBy);
    });

    it(`runs an approval once: exactly one of ${concurrentCallers} concurrent executions wins`, async () => {
      const { store } = harness();
      await store.create(proposal('prop_1', { state: 'approved', decidedAt: '2026-11-21T15:01:00.000Z' }));
      const results = await together(concurrentCallers, () =>
        store.transition('prop_1', 'approved', 'executed'),
      );
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      expect((await store.get('prop_1'))?.state).toBe('executed');
    });

    it('lets exactly one of two handles on the same data win an approval', async (context) => {
      const { store, reopen } = harness();
      if (!reopen) return context.skip('the implementation offers no second handle');
      const other = await reopen();
      await store.create(proposal('prop_1'));
      expect(await other.get('prop_1')).toEqual(proposal('prop_1'));
      const results = await together(concurrentCallers, (index) =>
        (index % 2 === 0 ? store : other).transition('prop_1', 'pending', 'approved', {
          decidedBy: `approver-${index}`,
        }),
      );
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      expect(await other.transition('prop_1', 'pending', 'approved')).toBeUndefined();
    });
  });
}
