export {
  type AvailabilityTool,
  type SetupUrls,
  type ToolAvailability,
  toolAvailability,
  type UnavailableReason,
} from './availability.js';
export type { Connector, ConnectorDefinition, ConnectorManifest } from './connector.js';
export {
  type AuthDeclaration,
  type AuthKind,
  authKinds,
  authSchema,
  type CredentialField,
  type Credentials,
  credentialFieldSchema,
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
  type ConnectorSettings,
  createHttpClient,
  type HttpClient,
  type HttpRequest,
  type HttpResult,
  verifyFailure,
} from './http.js';
export { invokeTool } from './invoke-tool.js';
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
export type { StatusSource, StoredConnection, SubjectState } from './status-source.js';
export {
  type AnyTool,
  type JsonSchema,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolEffect,
  toolEffects,
} from './tool.js';
