import type { Proposal } from '@patchbay/connector/ports';

/**
 * The approvals this gate has used, by their MAC, until they would have expired anyway. The store
 * drops an approval's MAC when its proposal is executed, so a row set back to `approved` does not
 * verify; a row restored whole from an earlier copy (state and approval MAC as they were) still
 * would, since nothing in the database can tell it from the original. This process remembers what
 * it ran, so it refuses such a copy however the row was edited, and also with a store that keeps
 * the MAC.
 */
export interface UsedApprovals {
  /** Records the approval of a proposal just consumed (read before the move to `executed`). */
  record(proposal: Proposal): void;
  /** Whether `approvalMac` belongs to an approval this gate has already used. */
  has(approvalMac: string | undefined): boolean;
  /** Forgets the approvals of a proposal the gate gave back (its call never started; it is pending again). */
  forget(proposalId: string): void;
}

/**
 * Makes the record. An entry lives `approvalTtlMs` past its decision: after that the approval is
 * expired whatever its row says, so memory holds at most the approvals used in one window.
 */
export function createUsedApprovals(now: () => Date, approvalTtlMs: number): UsedApprovals {
  const used = new Map<string, { proposalId: string; expiry: number }>();
  const prune = (at: number) => {
    for (const [mac, { expiry }] of used) if (expiry < at) used.delete(mac);
  };
  return {
    record(proposal) {
      if (proposal.approvalMac === undefined) return;
      const at = now().getTime();
      prune(at);
      const decidedAt = Date.parse(proposal.decidedAt ?? '');
      // A decision dated ahead of this clock (another process's) stays valid that much longer here.
      const from = Number.isFinite(decidedAt) ? Math.max(decidedAt, at) : at;
      used.set(proposal.approvalMac, { proposalId: proposal.id, expiry: from + approvalTtlMs });
    },
    has(approvalMac) {
      return approvalMac !== undefined && used.has(approvalMac);
    },
    forget(proposalId) {
      for (const [mac, entry] of used) if (entry.proposalId === proposalId) used.delete(mac);
    },
  };
}
