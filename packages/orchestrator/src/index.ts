export type {
  Agent,
  AgentCallContext,
  AgentFactory,
  AgentHealth,
  AgentManifest,
  AgentTool,
  ToolAnnotations,
} from './agent.js';
export { definitionHash, requiresApproval } from './approval-policy.js';
export { argsHash } from './args-hash.js';
export { agentToolOf, annotationsForEffect, connectorAgent } from './connector-agent.js';
export { type FunctionCallContext, type FunctionToolDefinition, fromFunction } from './function-agent.js';
export * from './gateway/index.js';
export { createInMemoryProposalStore } from './in-memory-proposal-store.js';
export { JsonSchemaValidator, type ValidationResult } from './json-schema-validator.js';
export * from './mcp/index.js';
export { redactPaths } from './observability.js';
export {
  createOrchestrator,
  type ExecuteOptions,
  type Orchestrator,
  type OrchestratorHealth,
  type OrchestratorOptions,
} from './orchestrator.js';
export { buildStatusSnapshot } from './status-snapshot.js';
export * from './turn/index.js';
