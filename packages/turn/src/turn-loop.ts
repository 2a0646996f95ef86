import type { LanguageModelV4, LanguageModelV4Prompt, LanguageModelV4ToolCall } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { callModel, type ModelPartListener } from './model-call.js';
import { toLanguageModelPrompt } from './model-prompt.js';
import { buildRetryGuidance, type InteractiveFailure } from './retry-guidance.js';
import { runStepCalls, type StepCallsContext } from './step-calls.js';
import { decideAfterStep } from './step-decision.js';
import type { TurnEventSink } from './turn-events.js';
import { retryTemperature, stepTemperature, type TurnSettings } from './turn-settings.js';
import type { ToolOffer } from './turn-tools.js';

/** What the step loop needs: the step-calls context plus the model, the limits and the prompt. */
export interface TurnLoopContext extends StepCallsContext {
  model: LanguageModelV4;
  settings: TurnSettings;
  /** System prompt, history and the user's message: the fixed start of every prompt. */
  base: readonly ModelMessage[];
  /** The tools to offer the next model call (status may have been refreshed, servers gone down, since the last). */
  offer(): Promise<ToolOffer>;
  /** This turn's messages in stored form: appended to the thread at the end. */
  stored: ModelMessage[];
  /** What follows `base` in the prompt: this turn's calls, results and retry guidance (not stored). */
  tail: ModelMessage[];
  /** Set on a streaming turn: model calls go through `doStream` and their deltas are reported here. */
  emit?: TurnEventSink | undefined;
}

/** Why the loop ended. */
export type TurnEnding =
  | { kind: 'replied'; text: string }
  | { kind: 'ask_user'; failures: InteractiveFailure[] }
  | { kind: 'step_limit' }
  | { kind: 'stopped'; outcome: 'aborted' | 'timed_out' };

/**
 * Runs model steps until the model replies without tool calls, the step decision hands the turn to
 * the user, the turn is stopped (signal, model deadline) or `maxSteps` is reached. A stopped model
 * call leaves nothing behind: only complete steps (every tool call with its result) are kept.
 */
export async function runSteps(context: TurnLoopContext): Promise<TurnEnding> {
  const { memory, recorder, settings } = context;
  // Each message is mapped to the model's prompt shape once: the base before the first step, the
  // tail as it grows (a step's calls, results, guidance), so a turn of N calls maps N messages, not N².
  const mappedBase = toLanguageModelPrompt(context.base);
  const mappedTail: LanguageModelV4Prompt = [];
  for (let index = 0; index < settings.maxSteps; index += 1) {
    // Checked before every model call: a model that ignores the signal gets no further call.
    if (context.signal?.aborted) return { kind: 'stopped', outcome: 'aborted' };
    const offer = await context.offer();
    const temperature = stepTemperature(settings, memory.attempt, memory.retryOpen());
    if (mappedTail.length < context.tail.length) {
      mappedTail.push(...toLanguageModelPrompt(context.tail.slice(mappedTail.length)));
    }
    // A new array per step: the trace keeps each step's prompt as it was sent.
    const prompt = [...mappedBase, ...mappedTail];
    const { emit } = context;
    emit?.({ type: 'step-start', index });
    const answer = await callModel(
      context.model,
      {
        prompt,
        tools: offer.tools,
        toolChoice: { type: 'auto' },
        ...(temperature !== undefined ? { temperature } : {}),
      },
      { signal: context.signal, timeoutMs: settings.modelTimeoutMs },
      emit ? forwardDeltas(emit, index) : undefined,
    );
    if (answer.kind !== 'answered') return { kind: 'stopped', outcome: answer.kind };
    const { result } = answer;
    const text = result.content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    const toolCalls = result.content.filter(
      (part): part is LanguageModelV4ToolCall => part.type === 'tool-call',
    );
    recorder.trace.steps.push({
      index,
      attempt: memory.attempt,
      temperature,
      exposedTools: offer.names,
      prompt,
      text,
      toolCalls: toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
      finishReason: result.finishReason.unified,
    });
    if (toolCalls.length === 0) {
      emit?.({ type: 'step-finish', index, finishReason: result.finishReason.unified });
      return { kind: 'replied', text };
    }

    const step = await runStepCalls(
      {
        index,
        text,
        toolCalls,
        offered: new Set(offer.names),
        toReal: offer.toReal,
        owners: offer.owners,
        unavailable: offer.unavailable,
      },
      context,
    );
    context.stored.push(step.assistant, step.results);
    context.tail.push(step.assistant, step.resultsForModel);
    emit?.({ type: 'step-finish', index, finishReason: result.finishReason.unified });
    recorder.sequencesClosed('succeeded', memory.closeSequences(step.succeeded));

    const decision = decideAfterStep(step, memory.attempt, settings);
    if (decision.next === 'ask_user') return { kind: 'ask_user', failures: decision.failures };
    if (decision.next === 'retry') addRetry(context, decision.failures);
  }
  return { kind: 'step_limit' };
}

/**
 * Reports a streamed model call's text and reasoning as turn events. Ids are made unique per step,
 * since providers number their blocks per call and a turn makes several.
 */
function forwardDeltas(emit: TurnEventSink, index: number): ModelPartListener {
  return (part) => {
    switch (part.type) {
      case 'text-start':
      case 'text-end':
      case 'reasoning-start':
      case 'reasoning-end':
        emit({ type: part.type, id: `${index}:${part.id}` });
        break;
      case 'text-delta':
      case 'reasoning-delta':
        emit({ type: part.type, id: `${index}:${part.id}`, delta: part.delta });
        break;
      default:
        break;
    }
  };
}

/** Opens the next attempt: records it and adds the guidance the model reads before it. */
function addRetry(context: TurnLoopContext, failures: InteractiveFailure[]): void {
  const { memory, settings } = context;
  const opened = memory.openRetry(failures);
  // Numbered as seed 001 counts: the first call is attempt 1, so the n-th retry is attempt n + 1.
  const guidance = buildRetryGuidance(failures, memory.attempt + 1, settings.maxAttempts + 1);
  context.recorder.retry(
    memory.attempt,
    retryTemperature(settings, memory.attempt),
    failures,
    guidance,
    opened,
  );
  // Guidance is a user-role message: every provider accepts it after tool results, unlike a mid-prompt system message.
  context.tail.push({ role: 'user', content: [{ type: 'text', text: guidance }] });
}
