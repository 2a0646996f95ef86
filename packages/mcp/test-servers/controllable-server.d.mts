import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Builds the controllable test stand-in server (see controllable-server.mjs). */
export function createControllableServer(options?: {
  environment?: Record<string, string | undefined>;
  onCrash?: (code: number) => void;
  /** Where `forged_lines` writes its raw lines (stdio only; the tool is absent without it). */
  rawOutput?: { write(chunk: string): unknown };
}): McpServer;

/** Tool names MCP allows and model APIs refuse, served with `CONTROLLABLE_HOSTILE_NAMES=1`. */
export const hostileToolNames: readonly string[];
