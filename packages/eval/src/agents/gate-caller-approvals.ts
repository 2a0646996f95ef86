// The approval steps of a gate caller's script beyond `approve` (agents/gate-caller.ts): a person
// rejects with a reason, an agent's tool is redefined, a writer to the store edits proposals.
import type { Orchestrator } from '@patchbay/orchestrator';
import type { ScriptStep } from '../scenario-format/script-step-schema.js';
import type { ProbeRedefinition } from './probe-agents.js';

/** What the approval steps need. */
export interface ApprovalStepOptions {
  orchestrator: Orchestrator;
  subject: string;
  /** Replaces a `gate.agents` agent by one whose tool is redefined (`redefine`). */
  redefine?: ((agent: string, change: ProbeRedefinition) => Promise<void>) | undefined;
  /** Edits a proposal's row in the store itself (`edit_proposals`). */
  editProposal?: ((id: string, fields: Record<string, string>) => Promise<void>) | undefined;
}

/** `reject`, then `redefine`, then `edit_proposals` of one step (after `approve`, before `run_approved`). */
export async function approvalSteps(step: ScriptStep, options: ApprovalStepOptions): Promise<void> {
  const { orchestrator, subject } = options;
  if (step.reject !== undefined)
    for (const proposal of await orchestrator.listProposals({ subject, state: 'pending' }))
      await orchestrator.reject(proposal.id, { reason: step.reject });
  if (step.redefine) {
    if (!options.redefine) throw new Error('`redefine` needs `gate.agents`');
    const { agent, ...change } = step.redefine;
    await options.redefine(agent, change);
  }
  if (step.edit_proposals) {
    if (!options.editProposal) throw new Error('`edit_proposals` needs `gate`');
    for (const proposal of await orchestrator.listProposals({ subject }))
      await options.editProposal(proposal.id, step.edit_proposals);
  }
}
