import type { Proposal } from '@patchbay/connector/ports';
import { type Envelope, PatchbayError } from '@patchbay/envelope';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import { mcpServersPath, withOrchestrator } from '../orchestrator-session.js';
import type { CliRuntime } from '../runtime.js';
import { printEnvelope } from './call.js';

/** Who decided, for the proposal record: the CLI user and the OS account. */
export function decider(runtime: CliRuntime): string {
  const account = runtime.settings.env.USER ?? runtime.settings.env.USERNAME;
  return `cli:${runtime.settings.subject}${account ? ` (${account})` : ''}`;
}

/** Turns the orchestrator's proposal errors into readable CLI errors. */
function proposalError(error: unknown, id: string): unknown {
  if (!PatchbayError.isInstance(error)) return error;
  if (error.code === 'proposal_not_found') {
    return new CliError(
      'proposal_not_found',
      `No proposal with id "${id}". Run "patchbay proposals --all-users" to list them.`,
    );
  }
  if (error.code === 'proposal_not_pending') {
    return new CliError(
      'proposal_not_pending',
      `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`,
    );
  }
  return error;
}

/** What an approval came to: the envelope of the run and the proposal after it. */
export interface ApprovalOutcome {
  envelope: Envelope;
  proposal: Proposal | undefined;
}

/**
 * Approves a pending proposal and runs it once through the orchestrator (compare-and-set: of two
 * approvals at once, one runs it and the other gets `proposal_not_pending`), then records the decision
 * and the resulting envelope in the audit log. What `patchbay approve` and the console both do.
 */
export async function approveProposal(
  runtime: CliRuntime,
  id: string,
  decidedBy: string,
  mcpServers?: string,
): Promise<ApprovalOutcome> {
  const proposal = await runtime.store().proposals.get(id);
  if (!proposal) throw new PatchbayError('proposal_not_found', `no proposal with id ${id}`);
  // One step: the gate checks the call can start before approving, and a call that did not
  // start leaves the proposal pending, so no approval is left standing without a run.
  const envelope = await withOrchestrator(runtime, { mcpServers, tool: proposal.tool }, (orchestrator) =>
    orchestrator.approveAndExecute(id, { decidedBy }),
  );
  const after = await runtime.store().proposals.get(id);
  await runtime.store().audit.append({
    event: 'proposal_approved',
    proposal: id,
    subject: proposal.subject,
    tool: proposal.tool,
    owner: proposal.owner,
    decided_by: decidedBy,
    outcome: envelope.ok ? 'ok' : envelope.error_type,
    state: after?.state,
    // The gate's envelope: redacted of every credential value, so the log may keep it for whoever reviews.
    envelope,
  });
  return { envelope, proposal: after };
}

/** Rejects a proposal with a reason through the orchestrator and records it in the audit log. */
export async function rejectProposal(
  runtime: CliRuntime,
  id: string,
  reason: string,
  decidedBy: string,
): Promise<Proposal> {
  const rejected = await withOrchestrator(runtime, {}, (orchestrator) =>
    orchestrator.reject(id, { reason, decidedBy }),
  );
  await runtime.store().audit.append({
    event: 'proposal_rejected',
    proposal: id,
    subject: rejected.subject,
    tool: rejected.tool,
    owner: rejected.owner,
    decided_by: decidedBy,
    reason,
  });
  return rejected;
}

/** `patchbay approve <id>`: approve a pending proposal and run it, once. */
export const approveCommand: Command = {
  name: 'approve',
  usage: '<proposal-id> [--mcp-config FILE]',
  summary: 'Approve a pending proposal and run it once, printing the envelope',
  examples: ['patchbay approve prop_3kq…', 'patchbay approve prop_3kq… --json'],
  options: { 'mcp-config': { type: 'string' } },
  positionals: { required: ['proposal-id'] },
  async run(runtime, values, [id]) {
    const mcpServers = mcpServersPath(runtime, values['mcp-config'] as string | undefined);
    let outcome: ApprovalOutcome;
    try {
      outcome = await approveProposal(runtime, id!, decider(runtime), mcpServers);
    } catch (error) {
      throw proposalError(error, id!);
    }
    if (outcome.proposal?.state === 'pending' && !runtime.settings.json) {
      runtime.note(`Proposal ${id} is still pending: approve it again once the call can run.`);
    }
    return printEnvelope(runtime, outcome.envelope);
  },
};

/** `patchbay reject <id> [--reason]`: decline a proposal; the agent sees approval_denied. */
export const rejectCommand: Command = {
  name: 'reject',
  usage: '<proposal-id> [--reason TEXT]',
  summary: 'Reject a proposal, recording the reason',
  examples: ['patchbay reject prop_3kq… --reason "wrong repository"'],
  options: { reason: { type: 'string' } },
  positionals: { required: ['proposal-id'] },
  async run(runtime, values, [id]) {
    const reason = (values.reason as string | undefined) ?? 'Rejected from the patchbay CLI.';
    let rejected: Proposal;
    try {
      rejected = await rejectProposal(runtime, id!, reason, decider(runtime));
    } catch (error) {
      throw proposalError(error, id!);
    }
    if (runtime.settings.json) {
      runtime.printJson({
        id: rejected.id,
        state: rejected.state,
        reason: rejected.reason,
        decided_by: rejected.decidedBy,
      });
    } else {
      runtime.print(`Rejected ${rejected.id} (${rejected.tool}): ${rejected.reason}`);
    }
    return exitCodes.ok;
  },
};
