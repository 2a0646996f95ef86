import type { RunTurnOptions } from '@patchbay/turn';

// The AI SDK's language-model types, reached through @patchbay/turn (which depends on
// @ai-sdk/provider), so this package adds no dependency of its own for them. Kept in one module so
// a change of their layout touches one file.

/** The AI SDK language-model interface (`LanguageModelV4`) every AI SDK provider implements. */
export type LanguageModelV4 = RunTurnOptions['model'];
/** What one `doGenerate` / `doStream` call receives. */
export type LanguageModelCallOptions = Parameters<LanguageModelV4['doGenerate']>[0];
/** One message of a language-model prompt. */
export type LanguageModelMessage = LanguageModelCallOptions['prompt'][number];
/** A function tool as the language model is offered it. */
export type LanguageModelFunctionTool = Extract<
  NonNullable<LanguageModelCallOptions['tools']>[number],
  { type: 'function' }
>;
/** The answer of one `doGenerate` call. */
export type LanguageModelGenerateResult = Awaited<ReturnType<LanguageModelV4['doGenerate']>>;
/** One part of a `doStream` answer. */
export type LanguageModelStreamPart =
  Awaited<ReturnType<LanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never;
/** Token counts of one call. */
export type LanguageModelUsage = LanguageModelGenerateResult['usage'];
