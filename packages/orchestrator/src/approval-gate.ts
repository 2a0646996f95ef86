import { randomBytes } from 'node:crypto';
import type { Proposal } from '@patchbay/connector';
import { type Envelope, failure, redactString } from '@patchbay/envelope';
import { argsHash } from './args-hash.js';
import type { CallState, GateContext } from './gate-context.js';
import type { ToolEntry } from './registry.js';

async function newProposal(
  context: GateContext,
  call: CallState,
  entry: ToolEntry,
  hash: string,
): Promise<Envelope> {
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
  };
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

/**
 * The approval step. Returns undefined when the call may run (its approval consumed with a
 * compare-and-set), else the envelope to answer with: a new or still pending proposal, a
 * rejection, or a conflict.
 */
export async function approvalGate(
  context: GateContext,
  call: CallState,
  entry: ToolEntry,
): Promise<Envelope | undefined> {
  const { proposals: store, log } = context;
  const hash = argsHash(call.args);
  const at = () => context.now().toISOString();
  if (call.proposal) {
    const proposal = call.proposal;
    if (argsHash(proposal.args) !== proposal.argsHash || proposal.tool !== call.name) {
      log.warn(
        { correlation_id: call.correlationId, proposal_id: proposal.id },
        'proposal arguments do not match their hash',
      );
      return failure('conflict', {
        userMessage: 'The stored proposal does not match what was approved; it needs a new proposal.',
      });
    }
    if (proposal.definitionHash !== undefined && proposal.definitionHash !== entry.definitionHash) {
      await store.transition(proposal.id, 'approved', 'expired', { at: at() });
      return newProposal(context, call, entry, hash);
    }
    const consumed = await store.transition(proposal.id, 'approved', 'executed', { at: at() });
    if (!consumed)
      return failure('conflict', {
        userMessage: 'This proposal was already used or is no longer approved.',
      });
    return undefined;
  }
  const candidates = (await store.list({ subject: call.subject })).filter(
    (proposal) => proposal.tool === call.name && proposal.argsHash === hash,
  );
  const current = (proposal: Proposal) =>
    proposal.definitionHash === undefined || proposal.definitionHash === entry.definitionHash;
  for (const proposal of candidates) {
    if ((proposal.state === 'approved' || proposal.state === 'pending') && !current(proposal)) {
      await store.transition(proposal.id, proposal.state, 'expired', { at: at() });
    }
  }
  for (const approved of candidates.filter(
    (proposal) => proposal.state === 'approved' && current(proposal),
  )) {
    // Compare-and-set: of two concurrent executions only one moves it to executed.
    if (await store.transition(approved.id, 'approved', 'executed', { at: at() })) {
      log.info(
        { correlation_id: call.correlationId, tool: call.name, proposal_id: approved.id },
        'running approved proposal',
      );
      return undefined;
    }
  }
  const pending = candidates.find((proposal) => proposal.state === 'pending' && current(proposal));
  if (pending) {
    return failure('approval_required', {
      proposalId: pending.id,
      connector: entry.tool.connectorId,
      userMessage: `Running ${call.name} is still waiting for approval (proposal ${pending.id}).`,
    });
  }
  for (const rejected of candidates.filter((proposal) => proposal.state === 'rejected')) {
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
