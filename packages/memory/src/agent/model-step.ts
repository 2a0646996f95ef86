import type { LanguageModelV4, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { type Envelope, PatchbayError } from '@patchbay/envelope';
import { callModel } from '@patchbay/turn';
import type { ToolStep } from './agent-state.js';

/** The two tools the model writes, each as the model sees it: only the fields it authors. */
const modelTools: Record<'add_entry' | 'put_context', LanguageModelV4FunctionTool> = {
  add_entry: {
    type: 'function',
    name: 'add_entry',
    description: 'Record the message you were given, with your summary of it.',
    inputSchema: {
      type: 'object',
      properties: {
        summary: {
          type: 'string',
          description: 'A short recap of the message, following the summary rules.',
        },
        tags: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Optional string pairs, e.g. {"topic": "billing"}.',
        },
      },
      required: ['summary'],
      additionalProperties: false,
    },
  },
  put_context: {
    type: 'function',
    name: 'put_context',
    description: 'Save the whole new context document of this memory.',
    inputSchema: {
      type: 'object',
      properties: { content: { type: 'string', description: 'The whole context document.' } },
      required: ['content'],
      additionalProperties: false,
    },
  },
};

/** What one model-written step needs from the agent. */
export interface ModelStepInputs {
  model: LanguageModelV4;
  tool: 'add_entry' | 'put_context';
  system: string;
  /** Builds the tool's full arguments from what the model wrote, or says why they are unusable. */
  toArgs(
    input: Record<string, unknown>,
  ): { ok: true; args: Record<string, unknown> } | { ok: false; error: string };
  /** Sends the call through the gate. */
  call(args: Record<string, unknown>): Promise<Envelope>;
  /** Model calls this step may still make; decremented here. */
  budget: { remaining: number };
  signal: AbortSignal | undefined;
  modelTimeoutMs: number;
  /** Where the step's calls (sent and refused) are recorded. */
  toolHistory: ToolStep[];
  /** Counts of the invocation, updated here. */
  usage: { modelCalls: number; inputTokens: number };
}

/** Envelope error types the model can fix by writing the call again. */
const fixable = new Set(['invalid_arguments', 'needs_input']);

function parseInput(input: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(input);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Asks the model for one call of the step's tool and sends it. The model is offered that tool
 * only, and a call of any other tool it makes anyway is refused and never sent. A call the model
 * can fix (unusable arguments, `invalid_arguments`) is asked for again with the reason while the
 * budget lasts. Returns the successful envelope, or the last failure / undefined when the budget ran out.
 */
export async function runModelStep(inputs: ModelStepInputs): Promise<Envelope | undefined> {
  const feedback: string[] = [];
  let lastFailure: Envelope | undefined;
  while (inputs.budget.remaining > 0) {
    inputs.budget.remaining -= 1;
    const instruction = ['Execute the required operation now.', ...feedback].join('\n');
    // Raced against the invocation's signal and the call's deadline: a model that ignores its abort
    // signal is abandoned, not awaited, so a hung model cannot hold the thread (or the queue) forever.
    const outcome = await callModel(
      inputs.model,
      {
        prompt: [
          { role: 'system', content: inputs.system },
          { role: 'user', content: [{ type: 'text', text: instruction }] },
        ],
        tools: [modelTools[inputs.tool]],
        toolChoice: { type: 'tool', toolName: inputs.tool },
      },
      { signal: inputs.signal, timeoutMs: inputs.modelTimeoutMs },
    );
    if (outcome.kind === 'aborted')
      throw new PatchbayError('cancelled', `The ${inputs.tool} step was cancelled.`);
    if (outcome.kind === 'timed_out') {
      throw new PatchbayError(
        'timeout',
        `The model did not answer the ${inputs.tool} step within ${inputs.modelTimeoutMs} ms.`,
      );
    }
    const { result } = outcome;
    inputs.usage.modelCalls += 1;
    inputs.usage.inputTokens += result.usage.inputTokens.total ?? 0;
    const calls = result.content.filter((part) => part.type === 'tool-call');
    for (const call of calls) {
      if (call.toolName === inputs.tool) continue;
      inputs.toolHistory.push({
        tool: call.toolName,
        by: 'model',
        ok: false,
        refused: true,
        error: `only ${inputs.tool} is allowed in this step`,
      });
    }
    const call = calls.find((part) => part.toolName === inputs.tool);
    if (!call) {
      feedback.push(`Your answer did not call ${inputs.tool}. Call ${inputs.tool} exactly once.`);
      continue;
    }
    const input = parseInput(call.input);
    const built = input
      ? inputs.toArgs(input)
      : { ok: false as const, error: 'the arguments were not a JSON object' };
    if (!built.ok) {
      inputs.toolHistory.push({ tool: inputs.tool, by: 'model', ok: false, error: built.error });
      feedback.push(
        `Your last ${inputs.tool} call was not usable: ${built.error}. Call it again, corrected.`,
      );
      continue;
    }
    const envelope = await inputs.call(built.args);
    inputs.toolHistory.push({
      tool: inputs.tool,
      by: 'model',
      args: built.args,
      ok: envelope.ok,
      error: envelope.ok ? undefined : envelope.user_message,
    });
    if (envelope.ok || !fixable.has(envelope.error_type)) return envelope;
    lastFailure = envelope;
    feedback.push(`Your last ${inputs.tool} call failed: ${envelope.user_message} Call it again, corrected.`);
  }
  return lastFailure;
}
