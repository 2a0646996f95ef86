import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { type ExposedTool, isMetaTool } from '@patchbay/protocol';
import { annotationsForEffect } from '../connector-agent.js';

/**
 * An exposed tool as an MCP host lists it: JSON Schema input and annotations from the declared
 * effect. Connector tools reach an outside service, hence `openWorldHint`; the status meta-tool
 * only reads Patchbay's own state.
 */
export function toMcpTool(tool: ExposedTool): McpTool {
  const annotations = isMetaTool(tool)
    ? { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    : { ...annotationsForEffect(tool.effect), openWorldHint: true };
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputJsonSchema as McpTool['inputSchema'],
    annotations,
  };
}
