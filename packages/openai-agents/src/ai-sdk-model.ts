import { randomUUID } from 'node:crypto';
import {
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
  type StreamEventResponseCompleted,
  Usage,
  UserError,
} from '@openai/agents';
import type {
  LanguageModelV4,
  LanguageModelV4AssistantPart,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
  LanguageModelV4UserPart,
} from './language-model.js';

/**
 * An Agents SDK `Model` that runs on an AI SDK `LanguageModelV4`: every AI SDK provider (and Patchbay's
 * scripted test model) can drive an Agents run. The request's instructions become the system message,
 * its input items the messages (function calls and their outputs as tool-call and tool-result parts,
 * outputs as JSON text), its function tools and handoffs the model's tools.
 */
export function aiSdkModel(model: LanguageModelV4): Model {
  return {
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      const result = await model.doGenerate(toCallOptions(request));
      return {
        usage: new Usage(usageInput(result.usage)),
        output: toOutputItems(result.content),
        ...(result.response?.id !== undefined ? { responseId: result.response.id } : {}),
      };
    },
    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      const { stream } = await model.doStream(toCallOptions(request));
      yield { type: 'response_started' };
      const content: LanguageModelV4Content[] = [];
      // Text and reasoning arrive as deltas under an id; the entry is placed where the block
      // started so text before a tool call stays before it.
      const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
      let usage: LanguageModelV4Usage | undefined;
      let responseId: string | undefined;
      const reader = stream.getReader();
      try {
        while (true) {
          const next = await reader.read();
          if (next.done) break;
          const part: LanguageModelV4StreamPart = next.value;
          yield { type: 'model', event: part };
          switch (part.type) {
            case 'text-start':
            case 'reasoning-start': {
              const entry = {
                type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const),
                text: '',
              };
              open.set(`${entry.type}:${part.id}`, entry);
              content.push(entry);
              break;
            }
            case 'text-delta': {
              const entry = open.get(`text:${part.id}`);
              if (entry) entry.text += part.delta;
              else {
                // A provider that skips text-start still streams text the run must keep.
                const started = { type: 'text' as const, text: part.delta };
                open.set(`text:${part.id}`, started);
                content.push(started);
              }
              yield { type: 'output_text_delta', delta: part.delta };
              break;
            }
            case 'reasoning-delta': {
              const entry = open.get(`reasoning:${part.id}`);
              if (entry) entry.text += part.delta;
              break;
            }
            case 'tool-call':
              content.push(part);
              break;
            case 'response-metadata':
              if (part.id !== undefined) responseId = part.id;
              break;
            case 'finish':
              usage = part.usage;
              break;
            case 'error':
              throw part.error instanceof Error ? part.error : new Error(String(part.error));
            default:
              break;
          }
        }
      } finally {
        reader.releaseLock();
      }
      const totals = usageInput(usage);
      yield {
        type: 'response_done',
        response: {
          id: responseId ?? `aisdk-${randomUUID()}`,
          usage: {
            requests: 1,
            inputTokens: totals.inputTokens,
            outputTokens: totals.outputTokens,
            totalTokens: totals.totalTokens,
            inputTokensDetails: totals.inputTokensDetails,
            outputTokensDetails: totals.outputTokensDetails,
          },
          output: toOutputItems(content) as StreamEventResponseCompleted['response']['output'],
        },
      };
    },
  };
}

function usageInput(usage: LanguageModelV4Usage | undefined) {
  const inputTokens = usage?.inputTokens.total ?? 0;
  const outputTokens = usage?.outputTokens.total ?? 0;
  return {
    requests: 1,
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    inputTokensDetails: { cached_tokens: usage?.inputTokens.cacheRead ?? 0 },
    outputTokensDetails: { reasoning_tokens: usage?.outputTokens.reasoning ?? 0 },
  };
}

/** The Agents request as AI SDK call options: prompt, tools, settings, abort signal. */
function toCallOptions(request: ModelRequest): LanguageModelV4CallOptions {
  const settings = request.modelSettings;
  const prompt: LanguageModelV4Message[] = [];
  if (request.systemInstructions) prompt.push({ role: 'system', content: request.systemInstructions });
  prompt.push(...toPrompt(request.input));
  const tools = toTools(request);
  const toolChoice = toToolChoice(settings.toolChoice);
  return {
    prompt,
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice && tools.length > 0 ? { toolChoice } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.topP !== undefined ? { topP: settings.topP } : {}),
    ...(settings.frequencyPenalty !== undefined ? { frequencyPenalty: settings.frequencyPenalty } : {}),
    ...(settings.presencePenalty !== undefined ? { presencePenalty: settings.presencePenalty } : {}),
    ...(settings.maxTokens !== undefined ? { maxOutputTokens: settings.maxTokens } : {}),
    ...(request.outputType !== 'text'
      ? {
          responseFormat: {
            type: 'json' as const,
            schema: request.outputType.schema as never,
            name: request.outputType.name,
          },
        }
      : {}),
    ...(request.signal ? { abortSignal: request.signal } : {}),
  };
}

function toToolChoice(choice: string | undefined): LanguageModelV4CallOptions['toolChoice'] {
  // The Agents default: the model decides (what OpenAI's own model does when the setting is absent).
  if (choice === undefined) return { type: 'auto' };
  if (choice === 'auto' || choice === 'required' || choice === 'none') return { type: choice };
  return { type: 'tool', toolName: choice };
}

function toTools(request: ModelRequest): LanguageModelV4FunctionTool[] {
  const tools: LanguageModelV4FunctionTool[] = request.tools.map((tool) => {
    if (tool.type !== 'function') {
      // A hosted tool (web search, computer, shell) runs on OpenAI's side: an AI SDK model cannot.
      throw new UserError(
        `aiSdkModel: the tool "${tool.name}" (${tool.type}) cannot run through an AI SDK model`,
      );
    }
    return {
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as LanguageModelV4FunctionTool['inputSchema'],
      ...(tool.strict ? { strict: true } : {}),
    };
  });
  for (const handoff of request.handoffs) {
    tools.push({
      type: 'function',
      name: handoff.toolName,
      description: handoff.toolDescription,
      inputSchema: handoff.inputJsonSchema as LanguageModelV4FunctionTool['inputSchema'],
    });
  }
  return tools;
}

/** Agents input items as AI SDK messages; a step's text and calls share one assistant message. */
function toPrompt(input: string | AgentInputItem[]): LanguageModelV4Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  const messages: LanguageModelV4Message[] = [];
  const assistant = (part: LanguageModelV4AssistantPart) => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') last.content.push(part);
    else messages.push({ role: 'assistant', content: [part] });
  };
  for (const item of input) {
    if (item.type === 'function_call') {
      assistant({
        type: 'tool-call',
        toolCallId: item.callId,
        toolName: item.name,
        input: parseJson(item.arguments),
      });
    } else if (item.type === 'function_call_result') {
      const part = {
        type: 'tool-result' as const,
        toolCallId: item.callId,
        toolName: item.name,
        output: toToolResultOutput(item.output),
      };
      const last = messages.at(-1);
      if (last?.role === 'tool') last.content.push(part);
      else messages.push({ role: 'tool', content: [part] });
    } else if (item.type === 'reasoning') {
      const text = item.content.map((part) => part.text).join('');
      if (text !== '') assistant({ type: 'reasoning', text });
    } else if (item.type === undefined || item.type === 'message') {
      if (!('role' in item)) continue;
      if (item.role === 'system') messages.push({ role: 'system', content: item.content });
      else if (item.role === 'user') messages.push({ role: 'user', content: toUserParts(item.content) });
      else if (item.role === 'assistant') {
        for (const part of item.content) {
          if (part.type === 'output_text') assistant({ type: 'text', text: part.text });
          else if (part.type === 'refusal') assistant({ type: 'text', text: part.refusal });
        }
      }
    } else {
      throw new UserError(`aiSdkModel: an input item of type "${item.type}" has no AI SDK message form`);
    }
  }
  return messages;
}

function toUserParts(
  content: string | Extract<AgentInputItem, { role: 'user' }>['content'],
): LanguageModelV4UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part): LanguageModelV4UserPart => {
    if (part.type === 'input_text') return { type: 'text', text: part.text };
    if (part.type === 'input_image' && typeof part.image === 'string') {
      return { type: 'file', mediaType: 'image', data: fileData(part.image) };
    }
    if (part.type === 'input_file' && typeof part.file === 'string') {
      return {
        type: 'file',
        mediaType: 'application/octet-stream',
        data: fileData(part.file),
        ...(part.filename ? { filename: part.filename } : {}),
      };
    }
    throw new UserError(`aiSdkModel: a user ${part.type} part of this form has no AI SDK message form`);
  });
}

function fileData(value: string): Extract<LanguageModelV4UserPart, { type: 'file' }>['data'] {
  if (/^(https?:|data:)/.test(value)) return { type: 'url', url: new URL(value) };
  return { type: 'data', data: value };
}

function toToolResultOutput(
  output: Extract<AgentInputItem, { type: 'function_call_result' }>['output'],
): LanguageModelV4ToolResultOutput {
  if (typeof output === 'string') return { type: 'text', value: output };
  if (!Array.isArray(output) && output.type === 'text') return { type: 'text', value: output.text };
  const parts = Array.isArray(output) ? output : [output];
  const texts = parts.flatMap((part) => (part.type === 'input_text' ? [part.text] : []));
  if (texts.length === parts.length) return { type: 'text', value: texts.join('') };
  // Images and files in tool results: the model still reads what they were, as JSON text.
  return { type: 'text', value: JSON.stringify(output) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** AI SDK answer content as Agents output items: assistant messages, function calls, reasoning. */
function toOutputItems(content: readonly LanguageModelV4Content[]): AgentOutputItem[] {
  const output: AgentOutputItem[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text === '') continue;
      const last = output.at(-1);
      // Consecutive text blocks are one message, so the run's final output is the whole reply.
      if (last?.type === 'message' && last.role === 'assistant' && last.content[0]?.type === 'output_text') {
        last.content[0].text += part.text;
      } else {
        output.push({
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: part.text }],
        });
      }
    } else if (part.type === 'reasoning') {
      if (part.text !== '')
        output.push({ type: 'reasoning', content: [{ type: 'input_text', text: part.text }] });
    } else if (part.type === 'tool-call' && part.providerExecuted !== true) {
      output.push({
        type: 'function_call',
        callId: part.toolCallId,
        name: part.toolName,
        arguments: part.input,
        status: 'completed',
      });
    }
  }
  return output;
}
