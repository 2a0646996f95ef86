import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import type { Connector, StatusSnapshot, ToolEffect } from '@patchbay/connector';
import { exposedTools, toLanguageModelTools } from '@patchbay/protocol';
import type { ToolInputContract } from './call-identity.js';
import type { RunTurnOptions } from './turn-types.js';

/** The tools one model call is offered: names for the trace, definitions for the model. */
export interface ToolOffer {
  names: string[];
  tools: LanguageModelV4FunctionTool[];
}

/**
 * The tools offered for the next model call: the connectors' tools that can work for the subject
 * now (from a fresh status) plus `refresh_connector_status`. The one place the offer is made, so
 * adding the orchestrator's own tools (functions, MCP) changes this function only.
 */
export function offerTools(snapshot: StatusSnapshot, connectors: readonly Connector[]): ToolOffer {
  const tools = exposedTools(snapshot, connectors);
  return { names: tools.map((tool) => tool.name), tools: toLanguageModelTools(tools) };
}

/** What the turn knows about a tool by name: its effect and its input contract. */
export interface ToolFacts extends ToolInputContract {
  effect: ToolEffect | undefined;
}

/**
 * Looks a tool up among the turn's connectors (which carry the zod schema the tool parses with),
 * then in the orchestrator's registry (functions and MCP tools: the JSON Schema the gate checks).
 */
export function toolFacts(
  toolName: string,
  connectors: readonly Connector[],
  orchestrator: RunTurnOptions['orchestrator'],
): ToolFacts {
  for (const connector of connectors) {
    const tool = connector.tools.find((candidate) => candidate.name === toolName);
    if (tool) return { effect: tool.effect, input: tool.input, inputJsonSchema: tool.inputJsonSchema };
  }
  const registered = orchestrator.getTool?.(toolName);
  return { effect: registered?.effect, inputJsonSchema: registered?.inputJsonSchema };
}
