import { randomBytes } from 'node:crypto';
import type { Proposal } from '@patchbay/connector/ports';
import { type Envelope, failure, redactString } from '@patchbay/envelope';
import { argsHash } from './args-hash.js';
import { type CallState, cancelledBeforeStart, type GateContext } from './gate-context.js';
import {
  type ProposalProblem,
  problemEnvelope,
  problemOf,
  toolChangedOf,
  voidProposal,
} from './proposal-checks.js';
import { proposalMac, verifyProposal } from './proposal-mac.js';
import type { ProposalListFilter } from './proposals-api.js';
import type { ToolEntry } from './registry.js';

async function newProposal(
  context: GateContext,
  call: CallState,
  entry: ToolEntry,
  hash: string,
): Promise<Envelope> {
  // Cancelled while the gate read its stores: no person is asked about a call nobody waits for.
  if (call.signal?.aborted) return cancelledBeforeStart();
  const proposal: Proposal = {
    id: `prop_${randomBytes(16).toString('base64url')}`,
    subject: call.subject,
    tool: call.name,
    args: call.args,
    argsHash: hash,
    createdAt: context.now().toISOString(),
    state: 'pending',
    correlationId: call.correlationId,
    definitionHash: entry.definitionHash,
    owner: entry.record.agent.id,
  };
  proposal.mac = proposalMac(context.proposalKey(), proposal);
  await context.proposals.create(proposal);
  context.log.info(
    { correlation_id: call.correlationId, tool: call.name, proposal_id: proposal.id, args_hash: hash },
    'approval required: proposal created',
  );
  return failure('approval_required', {
    proposalId: proposal.id,
    connector: entry.tool.connectorId,
    userMessage: `Running ${call.name} needs approval from a person first (proposal ${proposal.id}).`,
  });
}

/** Orchestrators that already warned about a store keeping used approvals' MACs. */
const warnedOfKeptApprovals = new WeakSet<GateContext>();

/**
 * Records a consumed approval as used. A store that still shows the approval's MAC on the executed
 * row (written against the port before it said to drop it) lets a writer to its database replay the
 * call by setting `state` back to `approved` once this process is gone: said once per orchestrator.
 */
function recordUse(context: GateContext, approved: Proposal, consumed: Proposal): void {
  context.usedApprovals.record(approved);
  if (consumed.approvalMac === undefined || warnedOfKeptApprovals.has(context)) return;
  warnedOfKeptApprovals.add(context);
  context.log.warn(
    { proposal_id: consumed.id },
    'the proposal store keeps the approval MAC of an executed proposal: this process refuses to run it again, but after a restart a database edit could (ProposalStore.transition to executed must clear approvalMac)',
  );
}

/** Consumes the approval `executeProposal` named, after checking it still authorises this call. */
async function consumeNamed(
  context: GateContext,
  call: CallState,
  entry: ToolEntry,
  proposal: Proposal,
  hash: string,
): Promise<Envelope | undefined> {
  // Checked by `approveAndExecute` in this process a moment ago (MACs verified, approval signed here)
  // and still routed to that entry: verified once per approval, not again.
  const problem =
    call.checked?.entry === entry ? toolChangedOf(proposal, entry) : problemOf(context, proposal, entry);
  if (problem) await voidProposal(context, proposal, problem, call.correlationId);
  // What a person approved was another tool (or another server's): they decide again on this one.
  if (problem === 'tool_changed') return newProposal(context, call, entry, hash);
  if (problem) return problemEnvelope(context, proposal, problem);
  const consumed = await context.proposals.transition(proposal.id, 'approved', 'executed', {
    at: context.now().toISOString(),
  });
  if (!consumed)
    return failure('conflict', {
      userMessage: 'This proposal was already used or is no longer approved.',
    });
  recordUse(context, proposal, consumed);
  call.consumed = consumed;
  return undefined;
}

/**
 * The approval step. Returns undefined when the call may run (its approval consumed with a
 * compare-and-set and recorded in `call.consumed`), else the envelope to answer with: a new or
 * still pending proposal, a rejection, a conflict, or the cancellation of a call whose caller gave
 * up before it got here (it touches no proposal). Stored proposals count only when their MACs
 * verify: a row edited in the database (arguments, subject, tool, approval, an executed row set
 * back to approved) authorises nothing.
 */
export async function approvalGate(
  context: GateContext,
  call: CallState,
  entry: ToolEntry,
): Promise<Envelope | undefined> {
  // Routing checked the signal, but the status and validation steps awaited since: a call cancelled
  // meanwhile neither uses an approval nor leaves a pending proposal for a person to find.
  if (call.signal?.aborted) return cancelledBeforeStart();
  const { proposals: store, log } = context;
  const hash = argsHash(call.args);
  if (call.proposal) return consumeNamed(context, call, entry, call.proposal, hash);
  const at = () => context.now().toISOString();
  const usable: Proposal[] = [];
  // This subject's proposals of this tool: stores that know the `tool` filter return no others.
  const filter: ProposalListFilter = { subject: call.subject, tool: call.name };
  for (const proposal of await store.list(filter)) {
    if (proposal.tool !== call.name || proposal.argsHash !== hash) continue;
    if (proposal.state === 'executed' || proposal.state === 'expired') continue;
    let problem: ProposalProblem | undefined;
    // The stored hash is not signed: the signed arguments themselves must be this call's.
    if (argsHash(proposal.args) !== hash) problem = 'tampered';
    else if (proposal.state === 'rejected')
      problem = verifyProposal(context.proposalKeys(), proposal) ? undefined : 'tampered';
    else problem = problemOf(context, proposal, entry);
    if (problem) await voidProposal(context, proposal, problem, call.correlationId);
    else usable.push(proposal);
  }
  for (const approved of usable.filter((proposal) => proposal.state === 'approved')) {
    // Compare-and-set: of two concurrent executions only one moves it to executed.
    const consumed = await store.transition(approved.id, 'approved', 'executed', { at: at() });
    if (consumed) {
      recordUse(context, approved, consumed);
      log.info(
        { correlation_id: call.correlationId, tool: call.name, proposal_id: approved.id },
        'running approved proposal',
      );
      call.consumed = consumed;
      return undefined;
    }
  }
  const pending = usable.find((proposal) => proposal.state === 'pending');
  if (pending) {
    return failure('approval_required', {
      proposalId: pending.id,
      connector: entry.tool.connectorId,
      userMessage: `Running ${call.name} is still waiting for approval (proposal ${pending.id}).`,
    });
  }
  for (const rejected of usable.filter((proposal) => proposal.state === 'rejected')) {
    // A rejection answers once; a later identical call makes a new proposal.
    if (await store.transition(rejected.id, 'rejected', 'expired', { at: at() })) {
      const reason = rejected.reason ? ` Reason: ${redactString(rejected.reason)}` : '';
      return failure('approval_denied', {
        connector: entry.tool.connectorId,
        userMessage: `A person declined running ${call.name} with these arguments.${reason}`,
      });
    }
  }
  return newProposal(context, call, entry, hash);
}
