export {
  type Capabilities,
  describeCapabilities,
  type ReadyCapability,
  type SetupCapability,
} from './capabilities.js';
export { type CaptureStatusOptions, captureStatus, type LiveVerificationOptions } from './capture-status.js';
export {
  createInMemoryStatusSource,
  type InMemoryStatusSource,
  type InMemoryStatusSourceState,
} from './in-memory-status-source.js';
export { type Clock, toIsoSeconds } from './iso-time.js';
export {
  type AssembleMessagesOptions,
  anthropicCacheBreakpoint,
  assembleMessages,
  type CacheProvider,
  contextAcknowledgement,
  type MessageLayout,
  stampMessage,
} from './messages.js';
export {
  isMetaTool,
  type MetaToolDefinition,
  refreshConnectorStatusTool,
  refreshConnectorStatusToolName,
} from './meta-tool.js';
export { toLanguageModelTools } from './model-tools.js';
export { type ProtocolBlockName, protocolBlockNames, protocolBlocks } from './prompt-blocks.js';
export { type JsonValue, stableStringify } from './stable-json.js';
export { type BuildSystemPromptOptions, buildSystemPrompt } from './system-prompt.js';
export {
  type ExposedTool,
  type ExposedToolsOptions,
  exposedTools,
  type UnavailableTool,
  type UnavailableToolReason,
  unavailableTools,
} from './tool-exposure.js';
export {
  type ConnectorStatusWire,
  type ConnectorStatusWireOptions,
  connectorStatusWire,
  defaultDisabledReason,
  type RenderTurnContextOptions,
  renderTurnContext,
  type ServerStatus,
  type StatusBlockSettings,
} from './turn-context.js';
export {
  createVerificationCache,
  defaultVerificationCache,
  type VerificationCache,
  type VerificationCacheOptions,
} from './verification-cache.js';
