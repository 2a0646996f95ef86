export type {
  Agent,
  AgentCallContext,
  AgentFactory,
  AgentHealth,
  AgentManifest,
  AgentTool,
  ToolAnnotations,
} from './agent.js';
export type { Proposal, ProposalState, ProposalStore } from './proposals.js';
export { definitionHash, requiresApproval } from './approval-policy.js';
export { argsHash, canonicalJson } from './canonical-json.js';
export { agentToolOf, annotationsForEffect, connectorAgent } from './connector-agent.js';
export { type FunctionCallContext, type FunctionToolDefinition, fromFunction } from './function-agent.js';
export { createInMemoryProposalStore } from './in-memory-proposal-store.js';
export { JsonSchemaValidator, type ValidationResult } from './json-schema-validator.js';
export { redactPaths } from './observability.js';
export {
  type ExecuteOptions,
  type Orchestrator,
  type OrchestratorHealth,
  type OrchestratorOptions,
  createOrchestrator,
} from './orchestrator.js';
export { buildStatusSnapshot } from './status-snapshot.js';
export * from './mcp/index.js';
