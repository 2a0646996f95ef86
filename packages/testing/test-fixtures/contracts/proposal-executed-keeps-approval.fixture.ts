import type { ProposalStore } from '@patchbay/connector/ports';
import { describeProposalStoreContract } from '../../src/index.js';
import { decided, proposalHarness, referenceProposalStore } from './reference-ports.js';

// Broken on purpose: executing keeps the approval's MAC in the row, so anyone who can write the
// database sets `state` back to `approved` and the used approval verifies again (a replay).
describeProposalStoreContract('executing keeps the approval MAC', () =>
  proposalHarness((proposals): ProposalStore => {
    const store = referenceProposalStore(proposals);
    return {
      ...store,
      async transition(id, from, to, decision = {}) {
        const current = proposals.get(id);
        if (!current || current.state !== from) return undefined;
        const next = decided(current, to, decision);
        if (to === 'executed' && current.approvalMac !== undefined) next.approvalMac = current.approvalMac;
        proposals.set(id, next);
        return structuredClone(next);
      },
    };
  }),
);
