import { toolDescriptionForModel } from '@patchbay/helpers';
import type { AgentTool } from '@patchbay/orchestrator';
import { annotationsForEffect } from '@patchbay/orchestrator/internal';
import { type ExposedTool, isMetaTool } from '@patchbay/protocol';
import type { Tool as McpTool } from '../sdk.js';

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
    description: toolDescriptionForModel(tool),
    inputSchema: tool.inputJsonSchema as McpTool['inputSchema'],
    annotations,
  };
}

/**
 * A tool of another agent (a wrapped function, an upstream MCP server's tool) as an MCP host lists it,
 * with the annotations the agent gave it: an upstream server's own, unchanged. No `outputSchema`: the
 * gateway answers with an envelope as structured content, not the upstream tool's output.
 */
export function agentToolToMcp(tool: AgentTool): McpTool {
  return {
    name: tool.name,
    description: toolDescriptionForModel(tool),
    inputSchema: tool.inputJsonSchema as McpTool['inputSchema'],
    ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
  };
}
