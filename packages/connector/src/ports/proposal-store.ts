import type { canonicalJson } from '../canonical-json.js';

/** Lifecycle of an approval proposal. Single use: `approved` becomes `executed` once the call ran. */
export type ProposalState = 'pending' | 'approved' | 'rejected' | 'executed' | 'expired';

/** A destructive call waiting for (or past) a person's decision. */
export interface Proposal {
  /** Opaque, unguessable id (e.g. `prop_` + random). */
  id: string;
  /** Whose call it is (a user or workspace id). */
  subject: string;
  /** Name of the tool the call is for. */
  tool: string;
  /** The exact arguments the model proposed. */
  args: unknown;
  /** Hex SHA-256 of {@link canonicalJson} of `args`; approving runs only this exact call. */
  argsHash: string;
  /** ISO time of creation. */
  createdAt: string;
  /** Where the proposal is in its lifecycle. */
  state: ProposalState;
  /** ISO time of the decision. */
  decidedAt?: string | undefined;
  /** Who decided (free text, e.g. a CLI user). */
  decidedBy?: string | undefined;
  /** Reason given on rejection. */
  reason?: string | undefined;
  /** Correlation id of the request that created it. */
  correlationId?: string | undefined;
  /**
   * Hash of the tool definition (description, input schema, annotations) the proposal was made
   * against; a changed definition voids the proposal.
   */
  definitionHash?: string | undefined;
}

/**
 * Where proposals live: in memory (`createInMemoryProposalStore` of `@patchbay/orchestrator`), SQLite
 * in `@patchbay/store`, or your own database. Every state change is a compare-and-set so two
 * processes cannot both execute one approval.
 */
export interface ProposalStore {
  /** Stores a new proposal; rejects when its id already exists. */
  create(proposal: Proposal): Promise<void>;
  /** The proposal with this id, or undefined. */
  get(id: string): Promise<Proposal | undefined>;
  /** Proposals matching every given filter field, in no promised order. */
  list(filter?: { subject?: string; state?: ProposalState }): Promise<Proposal[]>;
  /**
   * Moves a proposal from `from` to `to` (with decision fields) only if it is still in `from`.
   * Returns the updated proposal, or undefined when the state had already changed.
   */
  transition(
    id: string,
    from: ProposalState,
    to: ProposalState,
    decision?: { decidedBy?: string; reason?: string; at?: string },
  ): Promise<Proposal | undefined>;
}
