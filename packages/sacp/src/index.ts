// The public surface: what a chain author, a parser user or a runAgent hook writes against. The
// helpers behind it (JSON extraction, templates, conditions, checkpoint signing, audit records) stay
// in their modules; src/index.test.ts pins this list.
export type {
  CallTool,
  RunAgentHook,
  RunAgentRequest,
  RunAgentResult,
  ToolOutput,
} from './agent-turn.js';
export {
  createJsonlAuditLog,
  createMemoryAuditLog,
  type JsonlAuditLog,
  type MemoryAuditLog,
  type SacpAuditRecord,
  type SacpAuditSink,
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
export type { DataSchema, JsonSchemaObject } from './data-schema.js';
export {
  type Guardrail,
  type GuardrailContext,
  type InterventionGuardrailOptions,
  interventionGuardrail,
  type RedactionGuardrailOptions,
  redactionGuardrail,
} from './guardrails.js';
export type { SacpIssue } from './issues.js';
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
export { createMemoryResumeLedger, type ResumeLedger } from './resume-ledger.js';
export type { ResumeKey } from './resume-token.js';
export type { InputTemplate } from './template.js';
