import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { PatchbayError } from '@patchbay/envelope';

/** One tool call a scripted step makes. */
export interface ScriptedToolCall {
  toolName: string;
  /** The arguments; serialised to JSON as a provider would send them. A string is sent as is (e.g. broken JSON). */
  input?: unknown;
  /** Defaults to `call-<n>` numbered across the whole script. */
  toolCallId?: string;
}

/** What the model answers on one call: text, tool calls, or both. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: readonly ScriptedToolCall[];
}

/** One scripted step: a text reply, a reply object, or a function of the call (prompt, tools, temperature). */
export type ScriptedStep =
  | string
  | ScriptedReply
  | ((
      call: LanguageModelV4CallOptions,
      index: number,
    ) => string | ScriptedReply | Promise<string | ScriptedReply>);

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** Reported as `modelId`; default `scripted`. */
  modelId?: string;
  /** Reported as `provider`; default `patchbay.scripted`. */
  provider?: string;
  /**
   * `doStream` sends text in deltas of this many characters (default: the whole text in one), so a
   * test sees a reply arrive in pieces.
   */
  textChunkSize?: number;
  /** `doStream` waits this long before each part after the first (default 0): a slow model for abort tests. */
  chunkDelayMs?: number;
}

/** A scripted `LanguageModelV4` that remembers every call it received. */
export interface ScriptedModel extends LanguageModelV4 {
  /** Every call's options, in order: the exact prompt, tools, temperature. */
  readonly calls: LanguageModelV4CallOptions[];
  /** The prompt of every call, in order. */
  readonly prompts: LanguageModelV4CallOptions['prompt'][];
}

const noUsage: LanguageModelV4Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * Creates a scripted language model (AI SDK `LanguageModelV4`) for tests: call `n` answers with
 * `steps[n]`, or every call answers with `steps(call, n)` when a function is given. It records the
 * options of every call (`calls`, `prompts`) so a test can assert what the model was shown. A call
 * past the end of a script throws a `PatchbayError` (`script_exhausted`): a turn that asks the model
 * more often than the test expected fails loudly instead of looping.
 */
export function createScriptedModel(
  steps:
    | readonly ScriptedStep[]
    | ((
        call: LanguageModelV4CallOptions,
        index: number,
      ) => string | ScriptedReply | Promise<string | ScriptedReply>),
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const calls: LanguageModelV4CallOptions[] = [];
  let toolCallCounter = 0;

  async function reply(call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const index = calls.length;
    calls.push(call);
    let step: ScriptedStep | undefined;
    if (typeof steps === 'function') step = steps;
    else {
      step = steps[index];
      if (step === undefined) {
        throw new PatchbayError(
          'script_exhausted',
          `the scripted model was called ${index + 1} times but has ${steps.length} steps`,
        );
      }
    }
    const resolved = typeof step === 'function' ? await step(call, index) : step;
    const answer: ScriptedReply = typeof resolved === 'string' ? { text: resolved } : resolved;
    const content: LanguageModelV4Content[] = [];
    if (answer.text !== undefined && answer.text !== '') content.push({ type: 'text', text: answer.text });
    for (const toolCall of answer.toolCalls ?? []) {
      toolCallCounter += 1;
      content.push({
        type: 'tool-call',
        toolCallId: toolCall.toolCallId ?? `call-${toolCallCounter}`,
        toolName: toolCall.toolName,
        input: typeof toolCall.input === 'string' ? toolCall.input : JSON.stringify(toolCall.input ?? {}),
      });
    }
    const finishReason: LanguageModelV4FinishReason = {
      unified: answer.toolCalls?.length ? 'tool-calls' : 'stop',
      raw: undefined,
    };
    return { content, finishReason, usage: noUsage, warnings: [] };
  }

  return {
    specificationVersion: 'v4',
    provider: options.provider ?? 'patchbay.scripted',
    modelId: options.modelId ?? 'scripted',
    supportedUrls: {},
    calls,
    get prompts() {
      return calls.map((call) => call.prompt);
    },
    doGenerate: reply,
    async doStream(call) {
      const result = await reply(call);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      result.content.forEach((part, index) => {
        if (part.type === 'text') {
          const id = `text-${index}`;
          const size = options.textChunkSize ?? Math.max(part.text.length, 1);
          parts.push({ type: 'text-start', id });
          for (let start = 0; start < part.text.length; start += size) {
            parts.push({ type: 'text-delta', id, delta: part.text.slice(start, start + size) });
          }
          parts.push({ type: 'text-end', id });
        } else if (part.type === 'tool-call') parts.push(part);
      });
      parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
      const delay = options.chunkDelayMs ?? 0;
      let sent = 0;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            if (sent > 0 && delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
            if (call.abortSignal?.aborted) {
              controller.error(call.abortSignal.reason);
              return;
            }
            const part = parts[sent];
            sent += 1;
            if (part === undefined) controller.close();
            else controller.enqueue(part);
          },
        }),
      };
    },
  };
}
