import type { Proposal, ProposalState, ProposalStore } from '@patchbay/connector/ports';
import {
  type Envelope,
  type ErrorEnvelope,
  failure,
  PatchbayError,
  type PatchbayErrorCode,
  redactString,
} from '@patchbay/envelope';
import type { CallProgress } from './agent.js';
import { routeStep, statusStep } from './call-pipeline.js';
import type { CallState, CheckedApproval, GateContext } from './gate-context.js';
import { errorMessage } from './gate-context.js';
import {
  integrityProblemOf,
  problemEnvelope,
  reopenProposal,
  toolChangedOf,
  voidProposal,
} from './proposal-checks.js';
import { approvalMac } from './proposal-mac.js';

/** Options of a proposal's execution: how it may be cancelled or traced. */
export interface ProposalExecuteOptions {
  /** Cancels the call; the agent sees it through its context signal. */
  signal?: AbortSignal;
  /** Carried through logs, spans, MCP `_meta` and the envelope; generated when absent. */
  correlationId?: string;
  /** Caps the call's time limit, in ms (see `ExecuteOptions.deadlineMs`). */
  deadlineMs?: number;
  /** Receives progress the agent reports while the call runs. */
  onProgress?: (progress: CallProgress) => void;
}

/** Who approved or rejected, as recorded on the proposal. */
export interface ProposalDecisionInput {
  decidedBy?: string;
}

/** What a person does with proposals: the approvals half of the orchestrator. */
export interface ProposalsApi {
  approve(id: string, decision?: ProposalDecisionInput): Promise<Proposal>;
  approveAndExecute(
    id: string,
    decision?: ProposalDecisionInput,
    options?: ProposalExecuteOptions,
  ): Promise<Envelope>;
  reject(id: string, decision: { reason: string; decidedBy?: string }): Promise<Proposal>;
  executeProposal(id: string, options?: ProposalExecuteOptions): Promise<Envelope>;
  listProposals(filter?: { subject?: string; state?: ProposalState }): Promise<Proposal[]>;
  /** Voids open proposals made against an older definition of a tool, so listings show it at once. */
  expireProposalsOf(tool: string, currentHash: string): Promise<void>;
}

/**
 * The port's `list` filter. Its `tool` field is served by index by the stores of this package and of
 * `@patchbay/store`; callers still check each proposal's tool, so a store written before the field
 * existed (which ignores it) stays correct, only slower.
 */
export type ProposalListFilter = NonNullable<Parameters<ProposalStore['list']>[0]>;

/** Why a proposal cannot be approved now: a code for `approve`'s error and the envelope for the caller. */
interface Refusal {
  code: PatchbayErrorCode;
  envelope: ErrorEnvelope;
}

function refusal(envelope: Envelope, code?: PatchbayErrorCode): Refusal {
  // Every step answers with a failure; a success here would be a bug, and is not a reason to approve.
  const failed = envelope.ok ? failure('internal_error', {}) : envelope;
  return { code: code ?? failed.error_type, envelope: failed };
}

/** Creates the proposals part; `run` sends an approved call through the gate. */
export function createProposalsApi(
  context: GateContext,
  run: (call: CallState) => Promise<Envelope>,
  newCorrelationId: () => string,
): ProposalsApi {
  const { proposals: store, log } = context;
  const now = () => context.now().toISOString();

  async function pendingProposal(id: string): Promise<Proposal> {
    const proposal = await store.get(id);
    if (!proposal) throw new PatchbayError('proposal_not_found', `no proposal with id ${id}`);
    if (proposal.state !== 'pending')
      throw new PatchbayError('proposal_not_pending', `proposal ${id} is ${proposal.state}, not pending`);
    return proposal;
  }

  /**
   * Whether the proposal's call could start now: the proposal is intact and not too old, its tool is
   * routed to the same agent and definition, that agent is up, and the subject's connector status
   * allows it. Approving refuses otherwise, so no approval waits for a call that cannot run.
   */
  async function preflight(
    proposal: Proposal,
    correlationId?: string,
  ): Promise<{ refused: Refusal } | { refused?: undefined; checked: CheckedApproval }> {
    // The MACs are verified here once; routing and the status need no key.
    const stale = integrityProblemOf(context, proposal);
    if (stale) {
      await voidProposal(context, proposal, stale, correlationId);
      const code = stale === 'tampered' ? 'proposal_tampered' : 'proposal_expired';
      return { refused: refusal(problemEnvelope(context, proposal, stale), code) };
    }
    const route = routeStep(context, { name: proposal.tool, signal: undefined });
    if (!route.ok) return { refused: refusal(route.envelope) };
    const changed = toolChangedOf(proposal, route.value);
    if (changed) {
      await voidProposal(context, proposal, changed, correlationId);
      return { refused: refusal(problemEnvelope(context, proposal, changed), 'proposal_expired') };
    }
    const status = await statusStep(context, route.value, proposal.subject);
    if (!status.ok) return { refused: refusal(status.envelope) };
    return { checked: { entry: route.value, grant: status.value } };
  }

  /**
   * Records the approval with its MAC (compare-and-set from pending). Returns the row the store
   * returns, and the proposal as it was read and checked with the approval this process signed:
   * what runs is the latter, never a row nothing verified since.
   */
  async function recordApproval(
    proposal: Proposal,
    decision: ProposalDecisionInput,
  ): Promise<{ row: Proposal; checked: Proposal }> {
    const at = now();
    const signed = approvalMac(context.proposalKey(), {
      mac: proposal.mac,
      decidedAt: at,
      decidedBy: decision.decidedBy,
    });
    const approved = await store.transition(proposal.id, 'pending', 'approved', {
      ...(decision.decidedBy !== undefined ? { decidedBy: decision.decidedBy } : {}),
      at,
      approvalMac: signed,
    });
    if (!approved) {
      const current = await store.get(proposal.id);
      throw new PatchbayError(
        current ? 'proposal_not_pending' : 'proposal_not_found',
        current
          ? `proposal ${proposal.id} is ${current.state}, not pending`
          : `no proposal with id ${proposal.id}`,
      );
    }
    log.info(
      { proposal_id: proposal.id, tool: approved.tool, decided_by: decision.decidedBy },
      'proposal approved',
    );
    const checked: Proposal = {
      ...proposal,
      state: 'approved',
      decidedAt: at,
      ...(decision.decidedBy !== undefined ? { decidedBy: decision.decidedBy } : {}),
      approvalMac: signed,
    };
    return { row: approved, checked };
  }

  async function executeProposal(id: string, options: ProposalExecuteOptions = {}): Promise<Envelope> {
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
    return runApproved(proposal, options, correlationId);
  }

  /**
   * Sends an approved proposal through the gate, which consumes the approval (compare-and-set) and
   * runs it once. A call that did not start returns the proposal to pending.
   */
  async function runApproved(
    proposal: Proposal,
    options: ProposalExecuteOptions,
    correlationId: string,
    checked?: CheckedApproval,
  ): Promise<Envelope> {
    const { id } = proposal;
    const call: CallState = {
      name: proposal.tool,
      args: proposal.args,
      subject: proposal.subject,
      signal: options.signal,
      correlationId,
      deadlineMs: options.deadlineMs,
      onProgress: options.onProgress,
      proposal,
      checked,
    };
    const envelope = await run(call);
    if (call.consumed || envelope.ok) return envelope;
    // The call did not start (tool down, status refused, cancelled first): the approval is not
    // left standing, where the next identical call would use it without a person seeing it again.
    let reopened = false;
    try {
      reopened = await reopenProposal(context, proposal, 'approved', correlationId);
    } catch (error) {
      log.error(
        { proposal_id: id, error: redactString(errorMessage(error)) },
        'could not return a proposal to pending',
      );
    }
    if (!reopened) return envelope;
    return {
      ...envelope,
      user_message: `${envelope.user_message} Proposal ${id} was not used; it is pending and can be approved again.`,
    };
  }

  return {
    async approve(id, decision = {}) {
      const proposal = await pendingProposal(id);
      const { refused } = await preflight(proposal);
      if (refused) throw new PatchbayError(refused.code, refused.envelope.user_message);
      return (await recordApproval(proposal, decision)).row;
    },

    async approveAndExecute(id, decision = {}, options = {}) {
      const correlationId = options.correlationId ?? newCorrelationId();
      // Read once, verified once, status loaded once: the run goes on from what was checked here.
      const proposal = await pendingProposal(id);
      const preflighted = await preflight(proposal, correlationId);
      if (preflighted.refused) {
        const { envelope } = preflighted.refused;
        return { ...envelope, meta: { correlation_id: correlationId, tool: proposal.tool } };
      }
      const { checked } = await recordApproval(proposal, decision);
      return runApproved(checked, options, correlationId, preflighted.checked);
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

    executeProposal,

    listProposals(filter) {
      return store.list(filter);
    },

    async expireProposalsOf(tool, currentHash) {
      try {
        for (const state of ['pending', 'approved'] as const) {
          // This tool's open proposals only (an index in the stores that know `tool`); a store that
          // ignores the filter returns all of the state, and the tool is checked here either way.
          const filter: ProposalListFilter = { state, tool };
          for (const proposal of await store.list(filter)) {
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
