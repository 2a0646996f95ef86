import type { LanguageModelV4ToolCall } from '@ai-sdk/provider';
import type { Connector } from '@patchbay/connector';
import {
  type Envelope,
  interactiveErrorTypes,
  renderEnvelopeForModel,
  truncateForModel,
} from '@patchbay/envelope';
import { exceedsDepth, maxArgumentDepth } from '@patchbay/helpers';
import { stampMessage } from '@patchbay/protocol';
import type { AssistantContent, ModelMessage, ToolModelMessage, ToolResultPart } from 'ai';
import { type CallAction, type CallRules, type CallState, decideCall } from './call-decision.js';
import { callIdentity } from './call-identity.js';
import type { InteractiveFailure } from './retry-guidance.js';
import type { StepSummary } from './step-decision.js';
import { mediaOf, withMedia } from './tool-result-media.js';
import type { TurnEventSink } from './turn-events.js';
import type { TurnMemory } from './turn-memory.js';
import { type ToolFacts, toolFacts } from './turn-tools.js';
import type { TurnRecorder } from './turn-trace.js';
import type { RunTurnOptions, TurnCall } from './turn-types.js';

/** What running one step's calls needs from the turn. */
export interface StepCallsContext {
  turnId: string;
  subject: string;
  orchestrator: RunTurnOptions['orchestrator'];
  connectors: readonly Connector[];
  signal: AbortSignal | undefined;
  clock: () => Date;
  memory: TurnMemory;
  recorder: TurnRecorder;
  rules: CallRules;
  /** Most characters of one tool result in the prompt and the stored thread. */
  maxResultChars: number;
  /** Captures status again (the meta-tool) and answers with what the model should now see. */
  refreshStatus(): Promise<Envelope>;
  /** Set on a streaming turn: each call and its answer are reported as they happen. */
  emit?: TurnEventSink | undefined;
}

/** The step's messages and what its calls left for the loop. */
export interface StepCallsResult extends StepSummary {
  /** The assistant message with the model's text and tool calls, stamped. */
  assistant: ModelMessage;
  /** One tool result per call, in the order the model made them: what the thread stores. */
  results: ToolModelMessage;
  /** The same results as the model reads them in this turn, with the files tools returned. */
  resultsForModel: ToolModelMessage;
  /** Tools whose call succeeded in this step (listed once per call). */
  succeeded: string[];
}

/** A tool call's arguments as the model wrote them (JSON text), parsed, or why they cannot be. */
export function parseArguments(input: string): CallState['arguments'] {
  if (input.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return { ok: false };
  }
  return exceedsDepth(value, maxArgumentDepth) ? { ok: false, tooDeep: true } : { ok: true, value };
}

/**
 * The tool result as the model reads it: the compact, redacted, meta-free envelope (correlation ids
 * would only cost tokens) as JSON; when longer than `maxChars`, its start as text with a note of the
 * full size. The full envelope stays in the trace.
 */
export function modelOutputOf(envelope: Envelope, maxChars: number): ToolResultPart['output'] {
  const rendered = renderEnvelopeForModel(envelope);
  if (rendered.length <= maxChars) return { type: 'json', value: JSON.parse(rendered) };
  return { type: 'text', value: truncateForModel(rendered, maxChars) };
}

/** Carries out a decided action; returns the envelope the call is answered with and whether it was sent. */
async function carryOut(
  action: CallAction,
  call: LanguageModelV4ToolCall,
  state: CallState,
  effect: ToolFacts['effect'],
  context: StepCallsContext,
): Promise<Pick<TurnCall, 'envelope' | 'sent' | 'skipped' | 'correlationId'>> {
  switch (action.kind) {
    case 'skip':
      return { envelope: action.envelope, sent: false, skipped: action.reason };
    case 'refresh_status':
      return { envelope: await context.refreshStatus(), sent: true };
    case 'send': {
      const correlationId = `${context.turnId}:${call.toolCallId}`;
      const envelope = await context.orchestrator.execute(
        call.toolName,
        (state.arguments as { value: unknown }).value,
        { subject: context.subject, correlationId, ...(context.signal ? { signal: context.signal } : {}) },
      );
      context.memory.recordSent(call.toolName, state.identity, envelope, effect);
      return { envelope, sent: true, correlationId };
    }
  }
}

/** Reports a call's answer, and the approval a person is asked for when the gate made a proposal. */
function reportResult(
  emit: TurnEventSink,
  record: TurnCall,
  input: unknown,
  output: ToolResultPart['output'],
): void {
  const { envelope, toolCallId, toolName } = record;
  emit({
    type: 'tool-result',
    toolCallId,
    toolName,
    envelope,
    output: output.type === 'json' || output.type === 'text' ? output.value : undefined,
    sent: record.sent,
    ...(record.skipped ? { skipped: record.skipped } : {}),
  });
  if (!envelope.ok && envelope.error_type === 'approval_required' && envelope.proposal_id !== undefined) {
    emit({
      type: 'approval-requested',
      toolCallId,
      toolName,
      proposalId: envelope.proposal_id,
      input,
      message: envelope.user_message,
    });
  }
}

/**
 * Runs the tool calls of one model step in order: each is decided by the call decision table
 * (skipped with an answer, a status refresh, or sent through the gate), recorded, and answered
 * with a tool result, so every call the model made has its result in the thread.
 */
export async function runStepCalls(
  step: {
    index: number;
    text: string;
    toolCalls: readonly LanguageModelV4ToolCall[];
    /** Names of the tools this model call was offered: a call of any other is not run. */
    offered: ReadonlySet<string>;
    /**
     * The name the model called → the real name (see `ToolOffer.toReal`); without it the model's
     * names are the real names. A name absent from it was not shown to the model.
     */
    toReal?: ReadonlyMap<string, string>;
    /** Tool name → the agent serving it, for the trace. */
    owners?: ReadonlyMap<string, string>;
    /** Tool name → why an installed connector's tool is not offered (see `ToolOffer.unavailable`). */
    unavailable?: ReadonlyMap<string, Envelope>;
  },
  context: StepCallsContext,
): Promise<StepCallsResult> {
  const { memory, recorder } = context;
  const parsed = step.toolCalls.map((call) => ({ call, arguments: parseArguments(call.input) }));
  const assistantContent: Exclude<AssistantContent, string> = [];
  if (step.text) assistantContent.push({ type: 'text', text: step.text });
  for (const { call, arguments: args } of parsed) {
    assistantContent.push({
      type: 'tool-call',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: args.ok ? args.value : call.input,
    });
  }
  const assistant = stampMessage({ role: 'assistant', content: assistantContent }, context.clock());
  const results: ToolModelMessage = { role: 'tool', content: [] };
  const resultsForModel: ToolModelMessage = { role: 'tool', content: [] };
  const failures: InteractiveFailure[] = [];
  const succeeded: string[] = [];
  let ungrounded: InteractiveFailure | undefined;
  memory.startStep();

  for (const [positionInStep, { call: called, arguments: args }] of parsed.entries()) {
    // The gate, the call table and the trace work with the real name; the messages keep the model's.
    const shown = step.toReal ? step.toReal.get(called.toolName) : called.toolName;
    // A name the model was not shown is taken as written: not offered, and if it is a real tool of a
    // connector that cannot run now, answered with why (its setup page, the scope it lacks).
    const realName = shown ?? called.toolName;
    const call = realName === called.toolName ? called : { ...called, toolName: realName };
    // Looked up once per call: the identity reads its input contract, the memory its effect.
    const facts = toolFacts(call.toolName, context.connectors, context.orchestrator);
    const state: CallState = {
      toolName: call.toolName,
      arguments: args,
      identity: callIdentity(call.toolName, { input: call.input, arguments: args }, facts),
      positionInStep,
      cancelled: context.signal?.aborted === true,
      offered: shown !== undefined && step.offered.has(call.toolName),
      notOfferedBecause: step.unavailable?.get(call.toolName),
    };
    const action = decideCall(state, memory, context.rules);
    const input = args.ok ? args.value : call.input;
    context.emit?.({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input });
    const record: TurnCall = {
      step: step.index,
      attempt: memory.attempt,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      ...(called.toolName !== call.toolName ? { modelToolName: called.toolName } : {}),
      arguments: args.ok ? args.value : call.input,
      ...(await carryOut(action, call, state, facts.effect, context)),
    };
    const owner = step.owners?.get(call.toolName);
    if (record.sent && owner !== undefined) record.owner = owner;
    recorder.call(record);
    const { envelope } = record;
    if (!envelope.ok && interactiveErrorTypes.has(envelope.error_type)) {
      if (record.skipped === 'ungrounded_input') ungrounded = { toolName: call.toolName, envelope };
      else failures.push({ toolName: call.toolName, envelope });
    } else if (envelope.ok) {
      succeeded.push(call.toolName);
    }
    const part = {
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      // The model's name, as in the assistant message: a provider matches calls and results by it.
      toolName: called.toolName,
      output: modelOutputOf(envelope, context.maxResultChars),
    };
    results.content.push(part);
    resultsForModel.content.push({ ...part, output: withMedia(part.output, mediaOf(envelope)) });
    if (context.emit) reportResult(context.emit, record, input, part.output);
  }
  return { assistant, results, resultsForModel, succeeded, failures, ungrounded };
}
