export { type BackoffSettings, backoffDelay, defaultBackoff } from './backoff.js';
export {
  type CallFailureKind,
  classifyCallError,
  envelopeFromError,
  envelopeFromResult,
} from './call-result.js';
export {
  defaultMcpTimeoutMs,
  type LoadMcpServersConfigOptions,
  loadMcpServersConfig,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpServersConfig,
  type McpStdioServerConfig,
  parseMcpServersConfig,
} from './config.js';
export { type ExpandResult, expandVariables } from './expand-variables.js';
export { createMcpAgent, createMcpAgents, type McpAgent, type McpAgentOptions } from './mcp-agent.js';
export { effectFromAnnotations, exposedToolName, type McpAgentTool, toAgentTool } from './tool-mapping.js';
