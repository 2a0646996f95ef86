export {
  connectorStatusPromptName,
  connectorStatusResourceUri,
  correlationIdMetaKey,
  createMcpGateway,
  type McpGateway,
  type McpGatewayOptions,
  type McpGatewayRequest,
} from './mcp-gateway.js';
export { agentToolToMcp, toMcpTool } from './mcp-tool.js';
export {
  defaultSessionIdleTimeoutMs,
  isLoopbackHost,
  type McpGatewayHttpOptions,
  type McpGatewayHttpServer,
  serveMcpGatewayHttp,
} from './serve-http.js';
