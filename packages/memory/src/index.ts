export type { ChatMessage, MemoryAgentState, RecentEntry, ToolStep } from './agent/agent-state.js';
export { type MemoryControl, type MemoryStep, memoryControls, memorySequences } from './agent/control.js';
export { type EnsureMemoryOptions, ensureMemory } from './agent/ensure-memory.js';
export {
  createMemoryAgent,
  type MemoryAgent,
  type MemoryAgentOptions,
  type MemoryInvocation,
  type MemoryToolCaller,
} from './agent/memory-agent.js';
export {
  builtInPromptLoader,
  loadRulePrompts,
  type PromptClient,
  promptLoaderFromClient,
  type RulePromptLoader,
} from './agent/rule-prompt-loader.js';
export {
  createMemoryInvoker,
  type MemoryInvoker,
  type MemoryInvokerOptions,
  processWithInvokers,
} from './invoker.js';
export {
  createMemoryQueue,
  type MemoryQueue,
  type MemoryQueueOptions,
  type MemoryQueueStatus,
  type QueuedMessage,
} from './memory-queue.js';
export { type MemoryForTurn, type MemoryForTurnOptions, readMemoryForTurn } from './memory-turn-context.js';
export {
  envelopeOfMemoryResult,
  type MemoryServerAgent,
  type MemoryServerAgentOptions,
  memoryServerAgent,
} from './server/in-process-agent.js';
export { createMemoryServer, type MemoryServerOptions } from './server/memory-server.js';
export {
  type ForgettingMemoryStore,
  type MemoryToolDefinition,
  type MemoryToolName,
  memoryLimits,
  memoryToolNames,
  memoryTools,
} from './server/memory-tools.js';
export { type RulePromptName, rulePromptNames, rulePrompts } from './server/rule-prompts.js';
export { type MemoryHttpOptions, type MemoryHttpServer, serveMemoryHttp } from './server/serve-http.js';
export { type TurnMemory, type TurnMemoryOptions, turnMemory } from './turn-memory.js';
