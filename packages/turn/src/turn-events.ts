import type { LanguageModelV4FinishReason } from '@ai-sdk/provider';
import type { Envelope } from '@patchbay/envelope';
import type { SessionEvent } from './turn-session.js';
import type { TurnOutcome } from './turn-types.js';

/**
 * What a streaming turn reports as it happens, in order: the start, every status capture, each model
 * step with its text and reasoning deltas, each tool call and the envelope it got, approvals asked
 * for and decided, questions for the user, the reply, the end. The same tool and status events a
 * {@link TurnSession} reports (`SessionEvent`) are among them.
 */
export type TurnEvent =
  | { type: 'turn-start'; turnId: string; threadId: string }
  | SessionEvent
  | { type: 'step-start'; index: number }
  | { type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end'; id: string }
  | { type: 'text-delta' | 'reasoning-delta'; id: string; delta: string }
  | { type: 'step-finish'; index: number; finishReason: LanguageModelV4FinishReason['unified'] }
  | {
      type: 'approval-decided';
      proposalId: string;
      /** The tool call the approval was asked for, when the caller passed it back. */
      toolCallId?: string;
      toolName: string;
      approved: boolean;
      /** What the call returned once approved, or `approval_denied` / why the decision failed. */
      envelope: Envelope;
      /** The envelope as the model reads it. */
      output: unknown;
    }
  | {
      type: 'reply';
      /** The whole reply of the turn. */
      text: string;
      /**
       * The part of the reply not already streamed as the last step's text deltas (questions added
       * for the user, or a reply Patchbay wrote itself, e.g. after a stop); empty when none.
       */
      unstreamed: string;
    }
  | { type: 'turn-finish'; outcome: TurnOutcome; reply: string };

/** Receives turn events; absent on a turn nobody streams. */
export type TurnEventSink = (event: TurnEvent) => void;
