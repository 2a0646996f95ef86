import type { JSONSchema7 } from '@ai-sdk/provider';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { ExposedTool } from './tool-exposure.js';

/** Runs a tool call the model made; the orchestrator's `call` fits here. */
export type ToolCallHandler = (name: string, input: unknown) => Promise<unknown>;

/**
 * Converts exposed tools to an AI SDK `ToolSet` for `generateText`/`streamText`. Without `execute`
 * the tools have no execute function: the SDK returns the calls and the caller runs them through
 * the orchestrator, which re-checks status before anything leaves. The only entry of this package
 * that loads `ai` at run time, which is why it is a subpath and `ai` an optional peer.
 */
export function toAiSdkTools(
  tools: readonly ExposedTool[],
  options: { execute?: ToolCallHandler } = {},
): ToolSet {
  const set: ToolSet = {};
  for (const tool of tools) {
    const { execute } = options;
    set[tool.name] = dynamicTool({
      description: tool.description,
      inputSchema: jsonSchema(tool.inputJsonSchema as JSONSchema7),
      ...(execute ? { execute: (input: unknown) => execute(tool.name, input) } : {}),
    });
  }
  return set;
}
