import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  type InvalidToolCall,
  type ToolCall,
  type UsageMetadata,
} from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { toLanguageModelPrompt } from './language-model-prompt.js';
import type {
  LanguageModelCallOptions,
  LanguageModelFunctionTool,
  LanguageModelGenerateResult,
  LanguageModelUsage,
  LanguageModelV4,
} from './language-model-types.js';

/** Call options of {@link LanguageModelChatModel}: LangChain's, plus the tools `bindTools` binds. */
export interface LanguageModelChatModelCallOptions extends BaseChatModelCallOptions {
  /** The tools the model is offered, as `bindTools` received them. */
  tools?: BindToolsInput[];
}

/** Settings of {@link chatModelFromLanguageModel}: LangChain's model parameters and the call settings sent with every call. */
export interface LanguageModelChatModelSettings extends BaseChatModelParams {
  /** Sent with every call; left to the provider when absent. */
  temperature?: number;
  /** Sent with every call; left to the provider when absent. */
  maxOutputTokens?: number;
}

type LanguageModelToolChoice = NonNullable<LanguageModelCallOptions['toolChoice']>;

/** LangChain's `tool_choice` in the AI SDK's terms. */
function toolChoiceOf(choice: BaseChatModelCallOptions['tool_choice']): LanguageModelToolChoice {
  if (choice === undefined || choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'any' || choice === 'required') return { type: 'required' };
  if (typeof choice === 'string') return { type: 'tool', toolName: choice };
  const name = (choice as { function?: { name?: unknown } }).function?.name;
  return typeof name === 'string' ? { type: 'tool', toolName: name } : { type: 'auto' };
}

/** A bound tool as the language model is offered it: name, description, JSON Schema. */
function toFunctionTool(input: BindToolsInput): LanguageModelFunctionTool {
  const definition = convertToOpenAITool(input as Parameters<typeof convertToOpenAITool>[0]) as {
    function: { name: string; description?: string; parameters?: unknown };
  };
  const { name, description, parameters } = definition.function;
  return {
    type: 'function',
    name,
    ...(description !== undefined ? { description } : {}),
    inputSchema: (parameters ?? {
      type: 'object',
      properties: {},
    }) as LanguageModelFunctionTool['inputSchema'],
  };
}

function usageOf(usage: LanguageModelUsage | undefined): UsageMetadata | undefined {
  if (usage === undefined) return undefined;
  const input = usage.inputTokens.total ?? 0;
  const output = usage.outputTokens.total ?? 0;
  return { input_tokens: input, output_tokens: output, total_tokens: input + output };
}

/** A call the model made: a LangChain tool call when its input is a JSON object, else an invalid one. */
function toolCallOf(call: {
  toolCallId: string;
  toolName: string;
  input: string;
}): ToolCall | InvalidToolCall {
  try {
    const args: unknown = JSON.parse(call.input === '' ? '{}' : call.input);
    if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
      return {
        type: 'tool_call',
        id: call.toolCallId,
        name: call.toolName,
        args: args as Record<string, unknown>,
      };
    }
  } catch {
    // Falls through: the gate answers the raw text as invalid JSON.
  }
  return {
    type: 'invalid_tool_call',
    id: call.toolCallId,
    name: call.toolName,
    args: call.input,
    error: 'The arguments are not a JSON object.',
  };
}

function aiMessageOf(result: LanguageModelGenerateResult): AIMessage {
  const text = result.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
  const toolCalls: ToolCall[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  for (const part of result.content) {
    if (part.type !== 'tool-call') continue;
    const call = toolCallOf(part);
    if (call.type === 'tool_call') toolCalls.push(call);
    else invalidToolCalls.push(call as InvalidToolCall);
  }
  const usage = usageOf(result.usage);
  return new AIMessage({
    content: text,
    tool_calls: toolCalls,
    invalid_tool_calls: invalidToolCalls,
    response_metadata: { finish_reason: result.finishReason.unified },
    ...(usage ? { usage_metadata: usage } : {}),
  });
}

/**
 * A LangChain chat model that drives an AI SDK `LanguageModelV4`: every message, the bound tools
 * (name, description, JSON Schema) and the tool choice are passed to `doGenerate` (or `doStream`
 * when LangChain streams) as they are, so any AI SDK provider, and Patchbay's scripted model, can
 * drive a LangChain agent or a LangGraph graph.
 */
export class LanguageModelChatModel extends BaseChatModel<LanguageModelChatModelCallOptions> {
  /** The AI SDK model every call goes to. */
  readonly model: LanguageModelV4;
  private readonly settings: LanguageModelChatModelSettings;

  /** Usually made with {@link chatModelFromLanguageModel}. */
  constructor(model: LanguageModelV4, settings: LanguageModelChatModelSettings = {}) {
    super(settings);
    this.model = model;
    this.settings = settings;
  }

  /** LangChain's serialisation name. */
  static lc_name(): string {
    return 'LanguageModelChatModel';
  }

  /** LangChain's model type, shown in traces (read by LangChain's constructor, before `model` is set). */
  _llmType(): string {
    return 'ai-sdk';
  }

  /** Binds tools (LangChain tools, or OpenAI-style tool definitions) for the next calls. */
  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<LanguageModelChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, LanguageModelChatModelCallOptions> {
    return this.withConfig({ ...kwargs, tools });
  }

  private callOptions(messages: BaseMessage[], options: this['ParsedCallOptions']): LanguageModelCallOptions {
    const tools = (options.tools ?? []).map(toFunctionTool);
    return {
      prompt: toLanguageModelPrompt(messages),
      ...(tools.length > 0 ? { tools, toolChoice: toolChoiceOf(options.tool_choice) } : {}),
      ...(this.settings.temperature !== undefined ? { temperature: this.settings.temperature } : {}),
      ...(this.settings.maxOutputTokens !== undefined
        ? { maxOutputTokens: this.settings.maxOutputTokens }
        : {}),
      ...(options.stop?.length ? { stopSequences: options.stop } : {}),
      ...(options.signal ? { abortSignal: options.signal } : {}),
    };
  }

  /** One model call through `doGenerate`. */
  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const result = await this.model.doGenerate(this.callOptions(messages, options));
    const message = aiMessageOf(result);
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }

  /** One model call through `doStream`: text deltas as they come, each tool call as one chunk. */
  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { stream } = await this.model.doStream(this.callOptions(messages, options));
    const reader = stream.getReader();
    let toolIndex = 0;
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        if (part.type === 'text-delta') {
          const chunk = new ChatGenerationChunk({
            text: part.delta,
            message: new AIMessageChunk({ content: part.delta }),
          });
          yield chunk;
          await runManager?.handleLLMNewToken(part.delta, undefined, undefined, undefined, undefined, {
            chunk,
          });
        } else if (part.type === 'tool-call') {
          yield new ChatGenerationChunk({
            text: '',
            message: new AIMessageChunk({
              content: '',
              tool_call_chunks: [
                {
                  type: 'tool_call_chunk',
                  id: part.toolCallId,
                  name: part.toolName,
                  args: part.input,
                  index: toolIndex++,
                },
              ],
            }),
          });
        } else if (part.type === 'finish') {
          const usage = usageOf(part.usage);
          yield new ChatGenerationChunk({
            text: '',
            message: new AIMessageChunk({
              content: '',
              response_metadata: { finish_reason: part.finishReason.unified },
              ...(usage ? { usage_metadata: usage } : {}),
            }),
          });
        } else if (part.type === 'error') {
          throw part.error instanceof Error ? part.error : new Error(String(part.error));
        }
      }
    } finally {
      reader.releaseLock();
    }
  }
}

/**
 * Wraps an AI SDK `LanguageModelV4` as a LangChain chat model (a `BaseChatModel` with `bindTools`),
 * so the same model drives `runTurn`, an AI SDK agent and a LangGraph graph.
 */
export function chatModelFromLanguageModel(
  model: LanguageModelV4,
  settings: LanguageModelChatModelSettings = {},
): LanguageModelChatModel {
  return new LanguageModelChatModel(model, settings);
}
