export { toLanguageModelPrompt } from './model-prompt.js';
export {
  askUserReply,
  buildRetryGuidance,
  type InteractiveFailure,
  questionsOf,
  withQuestions,
} from './retry-guidance.js';
export {
  type RetryOptions,
  type RunTurnOptions,
  runTurn,
  type SkipReason,
  type TurnCall,
  type TurnCounters,
  type TurnResult,
  type TurnRetry,
  type TurnStep,
  type TurnTrace,
} from './run-turn.js';
export { createInMemoryThreadStore } from './thread-store.js';
export { createTurnInstruments, type TurnInstruments } from './turn-metrics.js';
