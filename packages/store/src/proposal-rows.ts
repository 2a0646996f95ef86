import type { Proposal, ProposalState } from '@patchbay/connector/ports';

/** A `proposals` row as both dialects return it (same column names in SQLite and Postgres). */
export interface ProposalRow {
  id: string;
  subject: string;
  tool: string;
  args: string;
  args_hash: string;
  created_at: string;
  state: string;
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
  correlation_id: string | null;
  definition_hash: string | null;
  owner: string | null;
  mac: string | null;
  approval_mac: string | null;
}

/** Columns an insert writes, in the order of {@link proposalValues}. */
export const proposalColumns = [
  'id',
  'subject',
  'tool',
  'args',
  'args_hash',
  'created_at',
  'state',
  'decided_at',
  'decided_by',
  'reason',
  'correlation_id',
  'definition_hash',
  'owner',
  'mac',
  'approval_mac',
] as const;

/** The values of a new row, in the order of {@link proposalColumns}. */
export function proposalValues(proposal: Proposal): (string | null)[] {
  return [
    proposal.id,
    proposal.subject,
    proposal.tool,
    JSON.stringify(proposal.args ?? null),
    proposal.argsHash,
    proposal.createdAt,
    proposal.state,
    proposal.decidedAt ?? null,
    proposal.decidedBy ?? null,
    proposal.reason ?? null,
    proposal.correlationId ?? null,
    proposal.definitionHash ?? null,
    proposal.owner ?? null,
    proposal.mac ?? null,
    proposal.approvalMac ?? null,
  ];
}

/** A row read back into the proposal it was made from. */
export function toProposal(row: ProposalRow): Proposal {
  const proposal: Proposal = {
    id: row.id,
    subject: row.subject,
    tool: row.tool,
    args: JSON.parse(row.args),
    argsHash: row.args_hash,
    createdAt: row.created_at,
    state: row.state as ProposalState,
  };
  if (row.decided_at !== null) proposal.decidedAt = row.decided_at;
  if (row.decided_by !== null) proposal.decidedBy = row.decided_by;
  if (row.reason !== null) proposal.reason = row.reason;
  if (row.correlation_id !== null) proposal.correlationId = row.correlation_id;
  if (row.definition_hash !== null) proposal.definitionHash = row.definition_hash;
  if (row.owner !== null) proposal.owner = row.owner;
  if (row.mac !== null) proposal.mac = row.mac;
  if (row.approval_mac !== null) proposal.approvalMac = row.approval_mac;
  return proposal;
}
