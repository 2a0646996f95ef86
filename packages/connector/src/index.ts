// The connector contract: what a connector package conforms to. What implementations call (the HTTP
// client, canonical JSON, origin binding, limits, availability) is in @patchbay/helpers; what stores
// implement (the ports) is at @patchbay/connector/ports.
export type {
  Connector,
  ConnectorDefinition,
  ConnectorFactory,
  ConnectorManifest,
  ConnectorSettings,
} from './connector.js';
export type {
  AuthDeclaration,
  AuthKind,
  CredentialField,
  Credentials,
  Scope,
  VerifyOptions,
  VerifyResult,
} from './credentials.js';
export { connectorDefinitionSchema, connectorManifest, defineConnector } from './define-connector.js';
export { defineTool, isTool, toolDefinitionSchema } from './define-tool.js';
export { questionForField, undescribedFields } from './field-questions.js';
export {
  type ConnectorStatus,
  type ConnectorStatusEntry,
  connectorStatuses,
  type StatusSnapshot,
  statusSnapshotSchema,
} from './status.js';
export {
  type AnyTool,
  type JsonSchema,
  type ScopeImplication,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolEffect,
  toolEffects,
} from './tool.js';
export { verifyFailure } from './verify-failure.js';
