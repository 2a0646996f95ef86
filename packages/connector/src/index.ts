export type { Connector, ConnectorDefinition, ConnectorManifest } from './connector.js';
export {
  type AuthDeclaration,
  type AuthKind,
  type CredentialField,
  type Credentials,
  type Scope,
  type VerifyOptions,
  type VerifyResult,
  authKinds,
  authSchema,
  credentialFieldSchema,
  scopeSchema,
} from './credentials.js';
export { connectorDefinitionSchema, connectorManifest, defineConnector } from './define-connector.js';
export { defineTool, isTool, toolDefinitionSchema, undescribedFields } from './define-tool.js';
export { invokeTool } from './invoke-tool.js';
export {
  type ConnectorStatus,
  type ConnectorStatusEntry,
  type StatusSnapshot,
  connectorStatusEntrySchema,
  connectorStatuses,
  connectorStatusSchema,
  statusSnapshotSchema,
} from './status.js';
export {
  type AnyTool,
  type JsonSchema,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolEffect,
  toolEffects,
} from './tool.js';
export {
  type SetupUrls,
  type ToolAvailability,
  type UnavailableReason,
  toolAvailability,
} from './availability.js';
export type { StatusSource, StoredConnection, SubjectState } from './status-source.js';
export {
  type ConnectorSettings,
  type HttpClient,
  type HttpRequest,
  type HttpResult,
  createHttpClient,
  verifyFailure,
} from './http.js';
