import type { JSONSchema7, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { toolDescriptionForModel } from '@patchbay/helpers';
import type { ExposedTool } from './tool-exposure.js';

/** Converts exposed tools to the AI SDK language-model (`LanguageModelV4`) function-tool form, in the same order. */
export function toLanguageModelTools(tools: readonly ExposedTool[]): LanguageModelV4FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: toolDescriptionForModel(tool),
    inputSchema: tool.inputJsonSchema as JSONSchema7,
  }));
}
