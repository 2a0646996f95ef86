import type { Proposal, ProposalDecision, ProposalState, ProposalStore } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import { type ProposalRow, proposalColumns, proposalValues, toProposal } from './proposal-rows.js';
import { immediateTransaction } from './sqlite-database.js';
import type { SqliteHandle } from './sqlite-handle.js';

/** One tool's proposals in one state, oldest first: served by the `(tool, state)` index (migration 11). */
export const proposalsOfToolInStateSql =
  'SELECT * FROM proposals WHERE tool = ? AND state = ? ORDER BY created_at, id';

/**
 * Proposals in SQLite; `transition` is one conditional UPDATE under the write lock. The MAC key is
 * derived from the store's secret key, which never enters the database.
 */
export class SqliteProposalStore implements ProposalStore {
  constructor(
    private readonly handle: SqliteHandle,
    private readonly keySource: () => Uint8Array = () => {
      throw new PatchbayError('invalid_secret_key', 'This proposal store was opened without a secret key.');
    },
    private readonly previousKeySource: () => Uint8Array[] = () => [],
  ) {}

  /** The proposal MAC key: a subkey of the store's secret key (resolved on first use). */
  macKey(): Uint8Array {
    return this.keySource();
  }

  /** Subkeys of the store's previous secret keys, so proposals signed before a key rotation still verify. */
  previousMacKeys(): Uint8Array[] {
    return this.previousKeySource();
  }

  /** Inserts a new proposal; a duplicate id is a `conflict` PatchbayError. */
  async create(proposal: Proposal): Promise<void> {
    this.handle.guard(() => {
      const existing = this.handle.prepare('SELECT 1 FROM proposals WHERE id = ?').get(proposal.id);
      if (existing) throw new PatchbayError('conflict', `A proposal with id ${proposal.id} already exists.`);
      this.handle
        .prepare(
          `INSERT INTO proposals (${proposalColumns.join(', ')}) VALUES (${proposalColumns.map(() => '?').join(', ')})`,
        )
        .run(...proposalValues(proposal));
    });
  }

  /** One proposal by id. */
  async get(id: string): Promise<Proposal | undefined> {
    return this.handle.guard(() => {
      const row = this.handle.prepare('SELECT * FROM proposals WHERE id = ?').get(id) as
        | ProposalRow
        | undefined;
      return row ? toProposal(row) : undefined;
    });
  }

  /**
   * Proposals, oldest first, optionally of one subject, state and/or tool. One tool's proposals in
   * one state (what a changed tool definition voids) are read through the `(tool, state)` index.
   */
  async list(filter: { subject?: string; state?: ProposalState; tool?: string } = {}): Promise<Proposal[]> {
    return this.handle.guard(() => {
      const rows = (filter.tool !== undefined && filter.state !== undefined && filter.subject === undefined
        ? this.handle.prepare(proposalsOfToolInStateSql).all(filter.tool, filter.state)
        : this.handle
            .prepare(
              `SELECT * FROM proposals
                 WHERE (:subject IS NULL OR subject = :subject) AND (:state IS NULL OR state = :state)
                   AND (:tool IS NULL OR tool = :tool)
                 ORDER BY created_at, id`,
            )
            .all({
              subject: filter.subject ?? null,
              state: filter.state ?? null,
              tool: filter.tool ?? null,
            })) as unknown as ProposalRow[];
      return rows.map(toProposal);
    });
  }

  /**
   * Compare-and-set: moves `id` from `from` to `to` only if it is still in `from`. Decision fields
   * are written only by a decision (`approved`, `rejected`) and cleared by a return to `pending`;
   * executing or expiring keeps them, except that executing drops the approval's MAC: a used
   * approval leaves nothing in the row that setting `state` back to `approved` would revive.
   */
  async transition(
    id: string,
    from: ProposalState,
    to: ProposalState,
    decision: ProposalDecision = {},
  ): Promise<Proposal | undefined> {
    const isDecision = to === 'approved' || to === 'rejected';
    return this.handle.guard((database) =>
      immediateTransaction(database, () => {
        const result = isDecision
          ? this.handle
              .prepare(
                `UPDATE proposals
                 SET state = ?, decided_at = ?, decided_by = COALESCE(?, decided_by), reason = COALESCE(?, reason),
                   approval_mac = ?
                 WHERE id = ? AND state = ?`,
              )
              .run(
                to,
                decision.at ?? new Date().toISOString(),
                decision.decidedBy ?? null,
                decision.reason ?? null,
                to === 'approved' ? (decision.approvalMac ?? null) : null,
                id,
                from,
              )
          : to === 'pending'
            ? this.handle
                .prepare(
                  `UPDATE proposals SET state = ?, decided_at = NULL, decided_by = NULL, approval_mac = NULL
                   WHERE id = ? AND state = ?`,
                )
                .run(to, id, from)
            : this.handle
                .prepare(
                  to === 'executed'
                    ? 'UPDATE proposals SET state = ?, approval_mac = NULL WHERE id = ? AND state = ?'
                    : 'UPDATE proposals SET state = ? WHERE id = ? AND state = ?',
                )
                .run(to, id, from);
        if (Number(result.changes) !== 1) return undefined;
        const row = this.handle
          .prepare('SELECT * FROM proposals WHERE id = ?')
          .get(id) as unknown as ProposalRow;
        return toProposal(row);
      }),
    );
  }
}
