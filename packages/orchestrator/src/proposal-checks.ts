import type { Proposal } from '@patchbay/connector/ports';
import { type Envelope, failure, formatWait, redactString } from '@patchbay/envelope';
import { errorMessage, type GateContext } from './gate-context.js';
import { verifyProposal } from './proposal-mac.js';
import type { ToolEntry } from './registry.js';

/** Why a stored proposal may not be used, if it may not. */
export type ProposalProblem = 'tampered' | 'expired' | 'tool_changed';

/**
 * Checks a stored proposal before it authorises anything: its MACs verify (so neither the call nor
 * the approval was edited in storage), it is within its time limit (pending: `proposalTtlMs` from
 * creation; approved: `approvalTtlMs` from the decision), and, given the routed tool, the same agent
 * serves the same definition it was made against.
 */
export function problemOf(
  context: GateContext,
  proposal: Proposal,
  entry?: ToolEntry,
): ProposalProblem | undefined {
  return integrityProblemOf(context, proposal) ?? (entry ? toolChangedOf(proposal, entry) : undefined);
}

/** The MAC and time-limit half of {@link problemOf}: what needs the keys (one HMAC per key tried). */
export function integrityProblemOf(context: GateContext, proposal: Proposal): ProposalProblem | undefined {
  if (!verifyProposal(context.proposalKeys(), proposal)) return 'tampered';
  // Verifies, yet this gate already ran on this approval: the row was put back as it was before.
  if (proposal.state === 'approved' && context.usedApprovals.has(proposal.approvalMac)) return 'tampered';
  const now = context.now().getTime();
  const { proposalTtlMs, approvalTtlMs } = context.limits;
  if (proposal.state === 'pending' && now - Date.parse(proposal.createdAt) > proposalTtlMs) return 'expired';
  if (proposal.state === 'approved') {
    const decidedAt = Date.parse(proposal.decidedAt ?? '');
    // An approval without a readable time cannot be shown to be recent.
    if (!Number.isFinite(decidedAt) || now - decidedAt > approvalTtlMs) return 'expired';
  }
  return undefined;
}

/** The routing half of {@link problemOf}: another agent or another definition serves the tool now. */
export function toolChangedOf(proposal: Proposal, entry: ToolEntry): ProposalProblem | undefined {
  return proposal.owner !== entry.record.agent.id || proposal.definitionHash !== entry.definitionHash
    ? 'tool_changed'
    : undefined;
}

/**
 * Moves an open proposal to `expired` (compare-and-set from the state it was read in). A tampered
 * one is also logged as a warning and written to the audit sink: someone with write access to the
 * proposal store changed what a person approved or would approve, or put back an approval that was
 * already used (`reason: 'approval_already_used'`).
 */
export async function voidProposal(
  context: GateContext,
  proposal: Proposal,
  problem: ProposalProblem,
  correlationId?: string,
): Promise<void> {
  const { log } = context;
  await context.proposals.transition(proposal.id, proposal.state, 'expired', {
    at: context.now().toISOString(),
  });
  if (problem !== 'tampered') return;
  const replayed = proposal.state === 'approved' && context.usedApprovals.has(proposal.approvalMac);
  // The row's fields are what the tamperer wrote: logged to find it, never trusted.
  const fields = {
    proposal_id: proposal.id,
    tool: proposal.tool,
    subject: proposal.subject,
    state: proposal.state,
    ...(replayed ? { reason: 'approval_already_used' } : {}),
    ...(correlationId !== undefined ? { correlation_id: correlationId } : {}),
  };
  log.warn(
    fields,
    replayed
      ? 'proposal refused: it was changed after it was made (its approval was already used; the row was restored)'
      : 'proposal refused: it was changed after it was made (MAC mismatch)',
  );
  try {
    await context.audit?.append({ event: 'proposal_tampered', ...fields });
  } catch (error) {
    log.error(
      { proposal_id: proposal.id, error: redactString(errorMessage(error)) },
      'could not audit a tampered proposal',
    );
  }
}

function durationText(milliseconds: number): string {
  return formatWait(milliseconds / 1000);
}

/** The envelope answering a request to run or approve a proposal that has a problem. */
export function problemEnvelope(
  context: GateContext,
  proposal: Proposal,
  problem: ProposalProblem,
): Envelope {
  const { id } = proposal;
  if (problem === 'tampered') {
    return failure('conflict', {
      userMessage: `Proposal ${id} was changed after it was proposed or approved, so it will not run; it has been voided. Make the call again to get a new proposal.`,
    });
  }
  if (problem === 'tool_changed') {
    return failure('conflict', {
      userMessage: `The tool of proposal ${id} changed since it was proposed, so it will not run; it has been voided. Make the call again to get a new proposal.`,
    });
  }
  return failure('conflict', {
    userMessage:
      proposal.state === 'approved'
        ? `The approval of proposal ${id} expired (approvals are valid for ${durationText(context.limits.approvalTtlMs)}), so it will not run. Make the call again to get a new proposal.`
        : `Proposal ${id} expired (proposals can be approved for ${durationText(context.limits.proposalTtlMs)}). Make the call again to get a new proposal.`,
  });
}

/**
 * Returns a proposal whose call did not start to `pending`, clearing its approval, so a person can
 * approve it again: an approval is never left standing for a call that did not run. Returns
 * whether it moved (it does not when another process used or voided it meanwhile).
 */
export async function reopenProposal(
  context: GateContext,
  proposal: Proposal,
  from: 'approved' | 'executed',
  correlationId?: string,
): Promise<boolean> {
  const reopened = await context.proposals.transition(proposal.id, from, 'pending', {
    at: context.now().toISOString(),
  });
  // The gate gives back an approval it consumed but never ran on: a person approves the call anew.
  if (reopened && from === 'executed') context.usedApprovals.forget(proposal.id);
  if (reopened) {
    context.log.info(
      {
        proposal_id: proposal.id,
        tool: proposal.tool,
        ...(correlationId !== undefined ? { correlation_id: correlationId } : {}),
      },
      'proposal is pending again: its call could not start',
    );
  }
  return reopened !== undefined;
}
