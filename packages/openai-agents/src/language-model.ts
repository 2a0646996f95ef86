import type { RunTurnOptions } from '@patchbay/turn';

// The AI SDK's language-model types, reached through @patchbay/turn (which depends on @ai-sdk/provider)
// so this package adds no dependency of its own for types only; one module, so a change of the
// provider package's layout touches one file.

/** An AI SDK language model, specification v4 (every AI SDK provider's models). */
export type LanguageModelV4 = RunTurnOptions['model'];
/** What one call of a `LanguageModelV4` receives: prompt, tools, settings. */
export type LanguageModelV4CallOptions = Parameters<LanguageModelV4['doGenerate']>[0];
/** The prompt of a call: system, user, assistant and tool messages. */
export type LanguageModelV4Prompt = LanguageModelV4CallOptions['prompt'];
/** One message of a prompt. */
export type LanguageModelV4Message = LanguageModelV4Prompt[number];
/** A function tool as a model call offers it. */
export type LanguageModelV4FunctionTool = Extract<
  NonNullable<LanguageModelV4CallOptions['tools']>[number],
  { type: 'function' }
>;
/** What `doGenerate` answers. */
export type LanguageModelV4GenerateResult = Awaited<ReturnType<LanguageModelV4['doGenerate']>>;
/** One part of a generated answer: text, reasoning, a tool call, … */
export type LanguageModelV4Content = LanguageModelV4GenerateResult['content'][number];
/** Token usage of one call. */
export type LanguageModelV4Usage = LanguageModelV4GenerateResult['usage'];
/** One part of what `doStream` streams. */
export type LanguageModelV4StreamPart =
  Awaited<ReturnType<LanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never;
/** The result of a tool call as a prompt carries it back to the model. */
export type LanguageModelV4ToolResultOutput = Extract<
  Extract<LanguageModelV4Message, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>['output'];
/** The content parts of a user message. */
export type LanguageModelV4UserPart = Extract<LanguageModelV4Message, { role: 'user' }>['content'][number];
/** The content parts of an assistant message. */
export type LanguageModelV4AssistantPart = Extract<
  LanguageModelV4Message,
  { role: 'assistant' }
>['content'][number];
