import type { JSONSchema7, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { ExposedTool } from './tool-exposure.js';

/** Runs a tool call the model made; the orchestrator's `call` fits here. */
export type ToolCallHandler = (name: string, input: unknown) => Promise<unknown>;

/**
 * Converts exposed tools to an AI SDK `ToolSet` for `generateText`/`streamText`. Without `execute`
 * the tools have no execute function: the SDK returns the calls and the caller runs them through
 * the orchestrator, which re-checks status before anything leaves.
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

/** Converts exposed tools to the AI SDK language-model (`LanguageModelV4`) function-tool form, in the same order. */
export function toLanguageModelTools(tools: readonly ExposedTool[]): LanguageModelV4FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputJsonSchema as JSONSchema7,
  }));
}
