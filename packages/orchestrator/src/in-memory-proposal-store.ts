import type { Proposal, ProposalState, ProposalStore } from '@patchbay/connector/ports';

/**
 * A process-local {@link ProposalStore}. Transitions are compare-and-set within the event loop, so
 * two concurrent executions of one approval run it once. State is lost on restart: use
 * `@patchbay/store` to keep proposals across processes. Besides the port's filters, `list` takes
 * `tool`, served from an index by tool, as `@patchbay/store`'s stores serve it.
 */
export function createInMemoryProposalStore(): ProposalStore {
  const proposals = new Map<string, Proposal>();
  /** Proposal ids by tool, in creation order (a proposal's tool never changes). */
  const byTool = new Map<string, Set<string>>();
  const copy = (proposal: Proposal): Proposal => structuredClone(proposal);
  return {
    async create(proposal) {
      if (proposals.has(proposal.id)) throw new Error(`proposal ${proposal.id} already exists`);
      proposals.set(proposal.id, copy(proposal));
      let ids = byTool.get(proposal.tool);
      if (!ids) {
        ids = new Set();
        byTool.set(proposal.tool, ids);
      }
      ids.add(proposal.id);
    },
    async get(id) {
      const proposal = proposals.get(id);
      return proposal ? copy(proposal) : undefined;
    },
    async list(filter: { subject?: string; state?: ProposalState; tool?: string } = {}) {
      const result: Proposal[] = [];
      // One tool's proposals are found by its index, not by reading every proposal.
      const ids = filter.tool === undefined ? proposals.keys() : (byTool.get(filter.tool) ?? []);
      for (const id of ids) {
        const proposal = proposals.get(id)!;
        if (filter.subject !== undefined && proposal.subject !== filter.subject) continue;
        if (filter.state !== undefined && proposal.state !== filter.state) continue;
        result.push(copy(proposal));
      }
      return result;
    },
    async transition(id, from, to, decision = {}) {
      const current = proposals.get(id);
      if (!current || current.state !== from) return undefined;
      const next: Proposal = { ...current, state: to };
      if (to === 'approved' || to === 'rejected') {
        next.decidedAt = decision.at ?? new Date().toISOString();
        if (decision.decidedBy !== undefined) next.decidedBy = decision.decidedBy;
        if (decision.reason !== undefined) next.reason = decision.reason;
        if (to === 'approved' && decision.approvalMac !== undefined) next.approvalMac = decision.approvalMac;
      } else if (to === 'executed') {
        // Used up: an executed row keeps no approval that an edit of its state could bring back.
        delete next.approvalMac;
      } else if (to === 'pending') {
        // Approvable again: no earlier decision may count for it.
        delete next.decidedAt;
        delete next.decidedBy;
        delete next.approvalMac;
      }
      proposals.set(id, next);
      return copy(next);
    },
  };
}
