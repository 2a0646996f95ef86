import type { Proposal } from '@patchbay/connector';
import { describe, expect, it } from 'vitest';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';

const proposal: Proposal = {
  id: 'prop_1',
  subject: 'user-1',
  tool: 'acme_delete_ticket',
  args: { id: 'T-1' },
  argsHash: 'hash',
  createdAt: '2030-01-01T00:00:00.000Z',
  state: 'pending',
};

describe('createInMemoryProposalStore', () => {
  it('moves state only from the expected state (compare-and-set)', async () => {
    const store = createInMemoryProposalStore();
    await store.create(proposal);
    const approved = await store.transition('prop_1', 'pending', 'approved', {
      decidedBy: 'alice',
      at: '2030-01-01T00:01:00.000Z',
    });
    expect(approved).toMatchObject({
      state: 'approved',
      decidedBy: 'alice',
      decidedAt: '2030-01-01T00:01:00.000Z',
    });
    const [first, second] = await Promise.all([
      store.transition('prop_1', 'approved', 'executed'),
      store.transition('prop_1', 'approved', 'executed'),
    ]);
    expect([first?.state, second?.state].filter(Boolean)).toEqual(['executed']);
    expect(await store.transition('missing', 'pending', 'approved')).toBeUndefined();
  });

  it('returns copies, filters lists and refuses duplicate ids', async () => {
    const store = createInMemoryProposalStore();
    await store.create(proposal);
    await store.create({ ...proposal, id: 'prop_2', subject: 'user-2' });
    const read = await store.get('prop_1');
    (read!.args as { id: string }).id = 'changed';
    expect((await store.get('prop_1'))?.args).toEqual({ id: 'T-1' });
    expect((await store.list({ subject: 'user-2' })).map((item) => item.id)).toEqual(['prop_2']);
    expect(await store.list({ state: 'approved' })).toEqual([]);
    await expect(store.create(proposal)).rejects.toThrow(/already exists/);
  });

  it('writes the approval MAC on approval and clears every decision field on a return to pending', async () => {
    const store = createInMemoryProposalStore();
    await store.create({ ...proposal, owner: 'agent-1', mac: 'signed' });
    const approved = await store.transition('prop_1', 'pending', 'approved', {
      decidedBy: 'alice',
      at: '2030-01-01T00:01:00.000Z',
      approvalMac: 'approval',
    });
    expect(approved).toMatchObject({ owner: 'agent-1', mac: 'signed', approvalMac: 'approval' });
    const reopened = await store.transition('prop_1', 'approved', 'pending');
    expect(reopened).toMatchObject({ state: 'pending', mac: 'signed' });
    expect(reopened).not.toHaveProperty('approvalMac');
    expect(reopened).not.toHaveProperty('decidedAt');
    expect(reopened).not.toHaveProperty('decidedBy');
  });
});
