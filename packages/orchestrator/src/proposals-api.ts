import type { Proposal, ProposalState } from '@patchbay/connector';
import { type Envelope, failure, PatchbayError, redactString } from '@patchbay/envelope';
import type { CallState, GateContext } from './gate-context.js';
import { errorMessage } from './gate-context.js';

/** Options of a proposal's execution: how it may be cancelled or traced. */
export interface ProposalExecuteOptions {
  /** Cancels the call; the agent sees it through its context signal. */
  signal?: AbortSignal;
  /** Carried through logs, spans, MCP `_meta` and the envelope; generated when absent. */
  correlationId?: string;
}

/** What a person does with proposals: the approvals half of the orchestrator. */
export interface ProposalsApi {
  approve(id: string, decision?: { decidedBy?: string }): Promise<Proposal>;
  reject(id: string, decision: { reason: string; decidedBy?: string }): Promise<Proposal>;
  executeProposal(id: string, options?: ProposalExecuteOptions): Promise<Envelope>;
  listProposals(filter?: { subject?: string; state?: ProposalState }): Promise<Proposal[]>;
  /** Voids open proposals made against an older definition of a tool, so listings show it at once. */
  expireProposalsOf(tool: string, currentHash: string): Promise<void>;
}

/** Creates the proposals part; `run` sends an approved call through the gate. */
export function createProposalsApi(
  context: GateContext,
  run: (call: CallState) => Promise<Envelope>,
  newCorrelationId: () => string,
): ProposalsApi {
  const { proposals: store, log } = context;
  const now = () => context.now().toISOString();

  return {
    async approve(id, decision = {}) {
      const approved = await store.transition(id, 'pending', 'approved', { ...decision, at: now() });
      if (!approved) {
        const current = await store.get(id);
        throw new PatchbayError(
          current ? 'proposal_not_pending' : 'proposal_not_found',
          current ? `proposal ${id} is ${current.state}, not pending` : `no proposal with id ${id}`,
        );
      }
      log.info({ proposal_id: id, tool: approved.tool, decided_by: decision.decidedBy }, 'proposal approved');
      return approved;
    },

    async reject(id, decision) {
      const at = now();
      const rejected =
        (await store.transition(id, 'pending', 'rejected', { ...decision, at })) ??
        (await store.transition(id, 'approved', 'rejected', { ...decision, at }));
      if (!rejected) {
        const current = await store.get(id);
        throw new PatchbayError(
          current ? 'proposal_not_pending' : 'proposal_not_found',
          current
            ? `proposal ${id} is ${current.state} and can no longer be rejected`
            : `no proposal with id ${id}`,
        );
      }
      log.info({ proposal_id: id, tool: rejected.tool, decided_by: decision.decidedBy }, 'proposal rejected');
      return rejected;
    },

    async executeProposal(id, options = {}) {
      const correlationId = options.correlationId ?? newCorrelationId();
      let proposal: Proposal | undefined;
      try {
        proposal = await store.get(id);
      } catch (error) {
        log.error({ proposal_id: id, error: redactString(errorMessage(error)) }, 'could not read proposal');
        return { ...failure('internal_error', {}), meta: { correlation_id: correlationId } };
      }
      const meta = { correlation_id: correlationId, ...(proposal ? { tool: proposal.tool } : {}) };
      if (!proposal) return { ...failure('not_found', { userMessage: `There is no proposal ${id}.` }), meta };
      if (proposal.state === 'pending') {
        return {
          ...failure('approval_required', {
            proposalId: id,
            userMessage: `Proposal ${id} has not been approved yet.`,
          }),
          meta,
        };
      }
      if (proposal.state === 'rejected') {
        return { ...failure('approval_denied', { userMessage: `Proposal ${id} was rejected.` }), meta };
      }
      if (proposal.state !== 'approved') {
        return {
          ...failure('conflict', {
            userMessage: `Proposal ${id} is ${proposal.state} and cannot run again.`,
          }),
          meta,
        };
      }
      return run({
        name: proposal.tool,
        args: proposal.args,
        subject: proposal.subject,
        signal: options.signal,
        correlationId,
        proposal,
      });
    },

    listProposals(filter) {
      return store.list(filter);
    },

    async expireProposalsOf(tool, currentHash) {
      try {
        for (const state of ['pending', 'approved'] as const) {
          for (const proposal of await store.list({ state })) {
            if (proposal.tool === tool && proposal.definitionHash !== currentHash) {
              await store.transition(proposal.id, state, 'expired', { at: now() });
            }
          }
        }
      } catch (error) {
        log.error(
          { tool, error: redactString(errorMessage(error)) },
          'could not expire proposals of a changed tool',
        );
      }
    },
  };
}
