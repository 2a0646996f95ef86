import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/** One scripted model step: final text, or tool calls the model "decides" to make. */
export type ScriptedStep = string | { toolCalls: Array<{ name: string; input: unknown }> };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

let callCounter = 0;

function toResult(step: ScriptedStep): LanguageModelV4GenerateResult {
  if (typeof step === 'string') {
    return {
      content: [{ type: 'text', text: step }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  }
  return {
    content: step.toolCalls.map((call) => {
      callCounter += 1;
      return {
        type: 'tool-call',
        toolCallId: `call-${callCounter}`,
        toolName: call.name,
        input: JSON.stringify(call.input),
      };
    }),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/**
 * Test stand-in for a language model: the AI SDK's `MockLanguageModelV4` answering with the given
 * steps in order (and failing loudly when the script runs out).
 */
export function scriptedModel(steps: ScriptedStep[]): MockLanguageModelV4 {
  let index = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const step = steps[index];
      index += 1;
      if (step === undefined) throw new Error(`scripted model ran out of steps after ${steps.length}`);
      return toResult(step);
    },
  });
}

/** Serialises an SACP reply the way a well-behaved model would. */
export function replyText(reply: {
  thought?: string;
  status: string;
  data?: unknown;
  message?: string;
}): string {
  return JSON.stringify({
    thought: reply.thought ?? '',
    status: reply.status,
    data: reply.data ?? {},
    message: reply.message ?? '',
  });
}

/** Text of every prompt message the model received on call `index`, for assertions. */
export function promptText(model: MockLanguageModelV4, index: number): string {
  return JSON.stringify(model.doGenerateCalls[index]?.prompt ?? []);
}
