/**
 * `@patchbay/mcp/client`: MCP servers (stdio or streamable HTTP, OAuth) as orchestrator agents, and
 * the `mcp-servers.json` file that lists them.
 * @module
 */
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
export type { McpOAuthOptions, McpOAuthStore } from './client/oauth-provider.js';
export type { McpServerFailure } from './client/start-failure.js';
export type { McpAgentTool } from './client/tool-mapping.js';
export {
  type DroppedTool,
  type DroppedToolReason,
  type ScreenedTools,
  upstreamToolLimits,
} from './client/upstream-tool-limits.js';
