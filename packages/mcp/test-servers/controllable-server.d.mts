import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Builds the controllable test stand-in server (see controllable-server.mjs). */
export function createControllableServer(options?: {
  environment?: Record<string, string | undefined>;
  onCrash?: (code: number) => void;
}): McpServer;
