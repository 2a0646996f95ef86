export { callModel, type ModelCallOutcome } from './model-call.js';
export {
  type ApprovalDecision,
  type RetryOptions,
  type RunTurnOptions,
  runTurn,
  type SkipReason,
  type TurnCall,
  type TurnCounters,
  type TurnOutcome,
  type TurnResult,
  type TurnResumeOptions,
  type TurnRetry,
  type TurnStep,
  type TurnTrace,
} from './run-turn.js';
export {
  approvalsFromUIMessages,
  lastUserText,
  type StreamTurnOptions,
  streamTurn,
  type TurnStream,
  type UIMessageStreamOptions,
  uiChunksOf,
} from './stream-turn.js';
export { createInMemoryThreadStore } from './thread-store.js';
export type { TurnEvent, TurnEventSink } from './turn-events.js';
export type { ConversationMemory, TurnMemoryTrace } from './turn-memory-source.js';
export {
  createTurnSession,
  type SessionCallResult,
  type SessionEvent,
  type SessionOrchestrator,
  type SessionTool,
  type StepPlan,
  type TurnSession,
  type TurnSessionOptions,
} from './turn-session.js';
