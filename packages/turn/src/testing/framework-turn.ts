import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { StepPlan, TurnSessionOptions } from '../turn-session.js';
import type { TurnCall } from '../turn-types.js';

/**
 * What one user turn through a framework's own loop did: the contract every provider package's
 * `runPatchbayTurn` (`@patchbay/<package>/testing`) answers with, so one eval runner grades them all.
 */
export interface FrameworkTurnRun {
  /** The framework's final text ('' when it stopped on a pending approval or ran out of steps). */
  reply: string;
  /** Every tool call of the turn, with its envelope, across an approval pause (the session's trace). */
  calls: readonly TurnCall[];
  /** Every plan the session prepared, in order. */
  steps: StepPlan[];
  /** Approvals the framework paused on and nobody decided (`approve` absent). */
  pendingApprovals: { toolName: string; input: unknown }[];
}

/** Options of every provider package's `runPatchbayTurn`: one user turn through that framework's loop. */
export interface FrameworkTurnOptions
  extends Pick<
    TurnSessionOptions,
    | 'subject'
    | 'orchestrator'
    | 'connectors'
    | 'statusSource'
    | 'statusBlock'
    | 'identity'
    | 'systemPrompt'
    | 'now'
  > {
  /** An AI SDK model (e.g. `createScriptedModel`), driven through the framework's model interface. */
  model: LanguageModelV4;
  /** What the user wrote. */
  message: string;
  /** Earlier messages of the conversation, as text, oldest first. */
  history?: readonly { role: 'user' | 'assistant'; content: string }[];
  /** The person: called at the framework's approval step; true approves, false rejects. Absent: the run stops pending. */
  approve?: (request: { toolName: string; input: unknown }) => boolean | Promise<boolean>;
  /** Most model calls of the turn, across an approval pause: default 8. */
  maxSteps?: number;
}
