/**
 * `@patchbay/mcp/gateway`: the orchestrator served as an MCP server, over any transport (stdio
 * included) or streamable HTTP. Loads no MCP client, process spawner or OAuth code: what
 * `patchbay mcp` needs and nothing more.
 * @module
 */

export { defaultSessionIdleTimeoutMs, isLoopbackHost } from './gateway/http-settings.js';
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

import type { McpGatewayHttpOptions, McpGatewayHttpServer } from './gateway/serve-http.js';

export type { McpGatewayHttpOptions, McpGatewayHttpServer };

/**
 * Serves the gateway over streamable HTTP (see `serve-http.ts` for the rules: loopback only, Origin
 * and bearer-token checks, one gateway per session). Its module is loaded on the first call: Node's
 * HTTP stack costs start-up that a gateway over stdio does not need.
 */
export async function serveMcpGatewayHttp(options: McpGatewayHttpOptions): Promise<McpGatewayHttpServer> {
  const { serveMcpGatewayHttp: serve } = await import('./gateway/serve-http.js');
  return serve(options);
}
