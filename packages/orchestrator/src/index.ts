export type {
  Agent,
  AgentCallContext,
  AgentFactory,
  AgentHealth,
  AgentManifest,
  AgentTool,
  CallProgress,
  ToolAnnotations,
} from './agent.js';
export { type ApprovalMode, type ApprovalPolicy, approvalModeOf } from './approval-policy.js';
export { connectorAgent } from './connector-agent.js';
export { type FunctionCallContext, type FunctionToolDefinition, fromFunction } from './function-agent.js';
export { createInMemoryProposalStore } from './in-memory-proposal-store.js';
export {
  createOrchestrator,
  type ExecuteOptions,
  type Orchestrator,
  type OrchestratorHealth,
  type OrchestratorOptions,
  type OrchestratorStopReport,
  type ShutdownFailure,
  type ToolConflict,
} from './orchestrator.js';
export {
  createRedactingLogger,
  type RedactingLoggerOptions,
  type SecretSource,
} from './redacting-logger.js';
