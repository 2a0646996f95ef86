/**
 * Lifecycle of an approval proposal. Single use: `approved` becomes `executed` once the call ran
 * (dropping the approval's MAC, so the row cannot be edited back into an approval); a call that
 * could not start returns it to `pending`. `expired` covers time limits, changed tools and
 * proposals refused as tampered.
 */
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
  /** Hex SHA-256 of canonical JSON (`canonicalJson` of `@patchbay/helpers`) of `args`; approving runs only this exact call. */
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
  /** Id of the agent that served the tool when the proposal was made (`connector:github`, an MCP server name). */
  owner?: string | undefined;
  /**
   * HMAC-SHA256 (base64url) over id, subject, tool, owner, canonical arguments, creation time and
   * definition hash, keyed with a secret that is never stored beside the row. Written once at
   * creation; a store keeps it as given. A proposal whose MAC does not verify never runs.
   */
  mac?: string | undefined;
  /**
   * HMAC-SHA256 (base64url) binding the approval (its time and decider) to `mac`; written by the
   * transition to `approved`, cleared by a move to `executed` (the approval is used up: a row set
   * back to `approved` without it never verifies) and by a return to `pending`.
   */
  approvalMac?: string | undefined;
}

/** Decision fields a transition may write. */
export interface ProposalDecision {
  decidedBy?: string;
  reason?: string;
  /** ISO time of the decision; now when absent. */
  at?: string;
  /** With a transition to `approved`: the approval's MAC (see {@link Proposal.approvalMac}). */
  approvalMac?: string;
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
  /**
   * Proposals matching every given filter field, in no promised order. `tool` lets the gate expire
   * and look up one tool's proposals without reading every proposal (stores index it).
   */
  list(filter?: { subject?: string; state?: ProposalState; tool?: string }): Promise<Proposal[]>;
  /**
   * Moves a proposal from `from` to `to` only if it is still in `from`. A move to `approved` or
   * `rejected` writes the decision fields (and `approvalMac` for `approved`); a move to `executed`
   * clears `approvalMac` and keeps `decidedAt` and `decidedBy`; a move to `pending` clears all
   * three; other moves keep them. Returns the updated proposal, or undefined when the state had
   * already changed.
   */
  transition(
    id: string,
    from: ProposalState,
    to: ProposalState,
    decision?: ProposalDecision,
  ): Promise<Proposal | undefined>;
  /**
   * The key proposals in this store are signed with, for stores that have a secret of their own
   * (`@patchbay/store` derives one from its secret key). Every process sharing the store must sign
   * with the same key; `createOrchestrator` uses it unless given `proposalKey`. Never log it.
   */
  macKey?(): Uint8Array;
  /**
   * Keys proposals may still be signed with: those of the store's previous secret keys (a key
   * rotation in progress or just done). The orchestrator accepts a proposal or approval signed with
   * any of them, and signs only with {@link ProposalStore.macKey}. Never log them.
   */
  previousMacKeys?(): Uint8Array[];
}
