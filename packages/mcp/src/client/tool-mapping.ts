import type { ToolEffect } from '@patchbay/connector';
import type { AgentTool, ToolAnnotations } from '@patchbay/orchestrator';
import type { Tool as McpTool } from '../sdk.js';

/**
 * An MCP tool as the registry sees it. `trusted` mirrors the server's `trust` setting so the
 * approval gate can decide how far to believe the server's annotations.
 */
export interface McpAgentTool extends AgentTool {
  /** True when the server is marked `trust: true` in `mcp-servers.json`. */
  trusted: boolean;
  /** Name of the MCP server that serves the tool. */
  server: string;
  /** The tool's own name on that server (before any prefix). */
  mcpName: string;
}

/**
 * Effect from MCP annotations: `readOnlyHint` means read, `destructiveHint` destructive,
 * anything else write. Annotations are hints; whether to believe them is the approval gate's
 * decision, made with `trusted`.
 */
export function effectFromAnnotations(annotations: ToolAnnotations | undefined): ToolEffect {
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.destructiveHint === true) return 'destructive';
  return 'write';
}

/** The exposed name of a server tool: `prefix_name` with a prefix, else the tool's own name. */
export function exposedToolName(toolName: string, prefix: string | undefined): string {
  return prefix ? `${prefix}_${toolName}` : toolName;
}

/** Maps one tool from `tools/list` to the registry's tool shape. */
export function toAgentTool(
  tool: McpTool,
  server: { name: string; prefix?: string | undefined; trust: boolean; timeout: number },
  _retryDelayMs = 300,
): McpAgentTool {
  const annotations = tool.annotations as ToolAnnotations | undefined;
  return {
    name: exposedToolName(tool.name, server.prefix),
    description: tool.description ?? tool.annotations?.title ?? tool.title ?? tool.name,
    inputJsonSchema: tool.inputSchema as Record<string, unknown>,
    effect: effectFromAnnotations(annotations),
    connectorId: undefined,
    requiredScopes: [],
    requires: [],
    // One budget for the whole call, the agent's one retry included: the caller (an MCP host with
    // its own 60 s request timeout) must hear our answer within the server's configured time.
    timeoutMs: server.timeout,
    annotations: annotations === undefined ? undefined : { ...annotations },
    trusted: server.trust,
    server: server.name,
    mcpName: tool.name,
  };
}
