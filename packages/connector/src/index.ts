export { exceedsDepth, maxArgumentDepth, tooDeepMessage } from './argument-limits.js';
export {
  type AvailabilityTool,
  type SetupUrls,
  type ToolAvailability,
  toolAvailability,
  type UnavailableReason,
} from './availability.js';
export { canonicalJson } from './canonical-json.js';
export type { Connector, ConnectorDefinition, ConnectorManifest } from './connector.js';
export {
  type AuthDeclaration,
  type AuthKind,
  authKinds,
  authSchema,
  type CredentialField,
  type Credentials,
  credentialFieldSchema,
  displayIdentity,
  type Scope,
  scopeSchema,
  secretCredentialValues,
  type VerifyOptions,
  type VerifyResult,
} from './credentials.js';
export { connectorDefinitionSchema, connectorManifest, defineConnector } from './define-connector.js';
export {
  defineTool,
  isTool,
  questionForField,
  toolDefinitionSchema,
  undescribedFields,
} from './define-tool.js';
export {
  type ConnectorFactory,
  type ConnectorSettings,
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type HttpResult,
  isLoopbackHostname,
  type MapError,
  verifyFailure,
} from './http.js';
export { invokeTool } from './invoke-tool.js';
export { bindConnectionsToOrigins, type ConnectorOrigins, originMismatch } from './origin-binding.js';
export type { AuditEntry, AuditSink } from './ports/audit-sink.js';
export type { Checkpointer } from './ports/checkpointer.js';
export type {
  ListEntriesOptions,
  MemoryContext,
  MemoryEntry,
  MemoryRecord,
  MemorySearchHit,
  MemorySearchQuery,
  MemoryStore,
  MemoryVault,
  NewMemoryEntry,
} from './ports/memory-store.js';
export type { Proposal, ProposalDecision, ProposalState, ProposalStore } from './ports/proposal-store.js';
export type {
  StatusChange,
  StatusSource,
  StoredConnection,
  SubjectState,
  WatchableStatusSource,
} from './ports/status-source.js';
export { isWatchable, loadConnectorState, narrowState } from './ports/status-source.js';
export {
  messageSentAt,
  type StoredMessage,
  type StoredMessagePart,
  type Thread,
  type ThreadStore,
} from './ports/thread-store.js';
export {
  type ConnectorStatus,
  type ConnectorStatusEntry,
  connectorStatusEntrySchema,
  connectorStatuses,
  connectorStatusSchema,
  type StatusSnapshot,
  statusSnapshotSchema,
} from './status.js';
export { statusEntriesFromState, unknownConnectorIds } from './status-rules.js';
export {
  type AnyTool,
  type DescribedTool,
  expandScopes,
  type JsonSchema,
  type ScopeImplication,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolEffect,
  toolDescriptionForModel,
  toolEffects,
} from './tool.js';
