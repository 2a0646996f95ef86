export {
  type CallTool,
  type RunAgentHook,
  type RunAgentRequest,
  type RunAgentResult,
  runAgentTurnWithModel,
  type ToolOutput,
} from './agent-turn.js';
export {
  createJsonlAuditLog,
  createMemoryAuditLog,
  type JsonlAuditLog,
  type MemoryAuditLog,
  type SacpAuditRecord,
  type SacpAuditSink,
  toAuditRecord,
} from './audit-log.js';
export {
  type Chain,
  type ChainCheckpoint,
  type ChainDefinition,
  type ChainEdge,
  type ChainRunOptions,
  type ChainRunResult,
  type ChainTraceEntry,
  defineChain,
} from './chain.js';
export { type CompiledCondition, type ConditionScope, compileCondition } from './condition.js';
export {
  compileDataSchema,
  type DataKeyDescription,
  type DataSchema,
  type DataValidator,
  type JsonSchemaObject,
} from './data-schema.js';
export { type CandidateOrigin, findJsonCandidates, type JsonCandidate, matchObject } from './extract-json.js';
export { defaultMaxRawOutputChars, fallbackReply } from './fallback.js';
export {
  type Guardrail,
  type GuardrailContext,
  type InterventionGuardrailOptions,
  interventionGuardrail,
  type RedactionGuardrailOptions,
  redactionGuardrail,
} from './guardrails.js';
export { formatIssues, type SacpIssue } from './issues.js';
export type {
  AgentNode,
  ChainNode,
  FunctionNode,
  FunctionNodeContext,
  NodeFunction,
} from './nodes.js';
export { type ParseSacpOptions, type ParseSacpResult, parseSacp, type SacpRepair } from './parse-sacp.js';
export { type SacpProtocolOptions, withSacpProtocol } from './protocol-prompt.js';
export { buildReaskInstruction } from './reask.js';
export {
  isSacpReply,
  isSacpStatus,
  type SacpReply,
  type SacpStatus,
  sacpReplySchema,
  sacpStatuses,
  sacpStatusSchema,
} from './reply.js';
export { decodeCheckpoint, encodeCheckpoint, type ResumeKey } from './resume-token.js';
export { type InputTemplate, renderTemplate, type TemplateScope } from './template.js';
