import type { Proposal } from '@patchbay/connector/ports';
import { describeProposalStoreContract } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';

describeProposalStoreContract('in-memory', () => ({ store: createInMemoryProposalStore() }));

const proposal: Proposal = {
  id: 'prop_1',
  subject: 'user-1',
  tool: 'acme_delete_item',
  args: { id: 'x' },
  argsHash: 'hash',
  createdAt: '2030-01-01T00:00:00.000Z',
  state: 'pending',
};

describe('createInMemoryProposalStore', () => {
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
