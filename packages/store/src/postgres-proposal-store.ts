import type { Proposal, ProposalDecision, ProposalState, ProposalStore } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import type { PostgresHandle } from './postgres-handle.js';
import { type ProposalRow, proposalColumns, proposalValues, toProposal } from './proposal-rows.js';

/**
 * Proposals in Postgres. `transition` is one conditional UPDATE: under READ COMMITTED a second
 * updater waits for the first one's row lock, then re-checks `state` on the new row version and
 * matches nothing, so of any number of processes exactly one wins.
 */
export class PostgresProposalStore implements ProposalStore {
  constructor(
    private readonly handle: PostgresHandle,
    private readonly keySource: () => Uint8Array,
    private readonly previousKeySource: () => Uint8Array[] = () => [],
  ) {}

  /** The proposal MAC key: a subkey of the store's secret key, never stored in the database. */
  macKey(): Uint8Array {
    return this.keySource();
  }

  /** Subkeys of the store's previous secret keys, so proposals signed before a key rotation still verify. */
  previousMacKeys(): Uint8Array[] {
    return this.previousKeySource();
  }

  /** Inserts a new proposal; a duplicate id is a `conflict` PatchbayError. */
  async create(proposal: Proposal): Promise<void> {
    const placeholders = proposalColumns.map((_, index) => `$${index + 1}`).join(', ');
    const result = await this.handle.query(
      `INSERT INTO proposals (${proposalColumns.join(', ')}) VALUES (${placeholders}) ON CONFLICT (id) DO NOTHING`,
      proposalValues(proposal),
      'patchbay_proposal_create',
    );
    if (result.rowCount !== 1)
      throw new PatchbayError('conflict', `A proposal with id ${proposal.id} already exists.`);
  }

  /** One proposal by id. */
  async get(id: string): Promise<Proposal | undefined> {
    const { rows } = await this.handle.query<ProposalRow>(
      'SELECT * FROM proposals WHERE id = $1',
      [id],
      'patchbay_proposal_get',
    );
    return rows[0] ? toProposal(rows[0]) : undefined;
  }

  /**
   * Proposals, oldest first, optionally of one subject, state and/or tool. One tool's proposals in
   * one state (what a changed tool definition voids) are read through the `(tool, state)` index.
   */
  async list(filter: { subject?: string; state?: ProposalState; tool?: string } = {}): Promise<Proposal[]> {
    if (filter.tool !== undefined && filter.state !== undefined && filter.subject === undefined) {
      const { rows } = await this.handle.query<ProposalRow>(
        'SELECT * FROM proposals WHERE tool = $1 AND state = $2 ORDER BY created_at, id',
        [filter.tool, filter.state],
        'patchbay_proposal_list_tool_state',
      );
      return rows.map(toProposal);
    }
    const { rows } = await this.handle.query<ProposalRow>(
      `SELECT * FROM proposals
       WHERE ($1::text IS NULL OR subject = $1) AND ($2::text IS NULL OR state = $2)
         AND ($3::text IS NULL OR tool = $3)
       ORDER BY created_at, id`,
      [filter.subject ?? null, filter.state ?? null, filter.tool ?? null],
    );
    return rows.map(toProposal);
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
    const { rows } = isDecision
      ? await this.handle.query<ProposalRow>(
          `UPDATE proposals
           SET state = $1, decided_at = $2, decided_by = COALESCE($3, decided_by), reason = COALESCE($4, reason),
             approval_mac = $5
           WHERE id = $6 AND state = $7 RETURNING *`,
          [
            to,
            decision.at ?? new Date().toISOString(),
            decision.decidedBy ?? null,
            decision.reason ?? null,
            to === 'approved' ? (decision.approvalMac ?? null) : null,
            id,
            from,
          ],
          'patchbay_proposal_decide',
        )
      : to === 'pending'
        ? await this.handle.query<ProposalRow>(
            `UPDATE proposals SET state = $1, decided_at = NULL, decided_by = NULL, approval_mac = NULL
             WHERE id = $2 AND state = $3 RETURNING *`,
            [to, id, from],
            'patchbay_proposal_reopen',
          )
        : await this.handle.query<ProposalRow>(
            to === 'executed'
              ? 'UPDATE proposals SET state = $1, approval_mac = NULL WHERE id = $2 AND state = $3 RETURNING *'
              : 'UPDATE proposals SET state = $1 WHERE id = $2 AND state = $3 RETURNING *',
            [to, id, from],
            // One name per text: the two texts above are two statements.
            to === 'executed' ? 'patchbay_proposal_execute' : 'patchbay_proposal_move',
          );
    return rows.length === 1 ? toProposal(rows[0]!) : undefined;
  }
}
