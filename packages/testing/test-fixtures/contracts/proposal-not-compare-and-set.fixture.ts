import type { ProposalStore } from '@patchbay/connector/ports';
import { describeProposalStoreContract } from '../../src/index.js';
import { decided, proposalHarness, referenceProposalStore, roundTrip } from './reference-ports.js';

// Broken on purpose: `transition` reads the proposal, waits for a round trip, and writes without
// checking the state again (read-then-write instead of one conditional update), so two callers can
// both approve, or both execute, one proposal.
describeProposalStoreContract('transition reads, then writes', () =>
  proposalHarness((proposals): ProposalStore => {
    const store = referenceProposalStore(proposals);
    return {
      ...store,
      async transition(id, from, to, decision = {}) {
        const current = await store.get(id);
        if (!current || current.state !== from) return undefined;
        await roundTrip();
        const next = decided(current, to, decision);
        proposals.set(id, next);
        return structuredClone(next);
      },
    };
  }),
);
