export { callModel, type ModelCallOutcome } from './model-call.js';
export {
  type RetryOptions,
  type RunTurnOptions,
  runTurn,
  type SkipReason,
  type TurnCall,
  type TurnCounters,
  type TurnOutcome,
  type TurnResult,
  type TurnRetry,
  type TurnStep,
  type TurnTrace,
} from './run-turn.js';
export { createInMemoryThreadStore } from './thread-store.js';
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
