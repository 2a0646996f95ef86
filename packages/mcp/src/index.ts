export {
  type AuthorizeMcpServerOptions,
  type AuthorizeMcpServerResult,
  authorizeMcpServer,
  defaultAuthorizationTimeoutMs,
} from './client/authorize.js';
export { type BackoffSettings, defaultBackoff } from './client/backoff.js';
export {
  defaultMcpTimeoutMs,
  type LoadMcpServersConfigOptions,
  loadMcpServersConfig,
  type McpHttpServerConfig,
  type McpOAuthSettings,
  type McpServerAuthMode,
  type McpServerConfig,
  type McpServersConfig,
  type McpStdioServerConfig,
  parseMcpServersConfig,
} from './client/config.js';
export {
  askUserOnElicitation,
  type ElicitationAnswer,
  type ElicitationHandler,
  type ElicitationRequest,
} from './client/elicitation.js';
export {
  createMcpAgent,
  createMcpAgents,
  type McpAgent,
  type McpAgentHealth,
  type McpAgentOptions,
} from './client/mcp-agent.js';
export { type McpOAuthOptions, type McpOAuthStore, setupCommandFor } from './client/oauth-provider.js';
export { sharedToolNameMessage } from './client/shared-tool-name.js';
export type { McpServerFailure } from './client/start-failure.js';
export type { McpAgentTool } from './client/tool-mapping.js';
export { ownerCandidates, startToolOwner, type ToolOwnerSearch } from './client/tool-owner.js';
export {
  type DroppedTool,
  type DroppedToolReason,
  type ScreenedTools,
  screenUpstreamTools,
  upstreamToolLimits,
} from './client/upstream-tool-limits.js';
export {
  connectorStatusPromptName,
  connectorStatusResourceUri,
  correlationIdMetaKey,
  createMcpGateway,
  defaultCallDeadlineMs,
  defaultStartupWaitMs,
  type McpGateway,
  type McpGatewayOptions,
  type McpGatewayRequest,
} from './gateway/mcp-gateway.js';
export {
  defaultSessionIdleTimeoutMs,
  isLoopbackHost,
  type McpGatewayHttpOptions,
  type McpGatewayHttpServer,
  serveMcpGatewayHttp,
} from './gateway/serve-http.js';
