import { PatchbayError, type PatchbayErrorCode, renderEnvelopeForModel } from '@patchbay/envelope';
import { type RunTurnOptions, runTurn, type TurnResult } from '@patchbay/turn';
import { withQuestions } from '@patchbay/turn/internal';
import type { ModelMessage } from 'ai';
import { type RunAgentHook, type RunAgentRequest, reaskCallRefusal, type ToolOutput } from '../agent-turn.js';
import { parseSacp } from '../parse-sacp.js';
import type { SacpReply } from '../reply.js';

type Connectors = RunTurnOptions['connectors'];

/** Options of {@link turnAgentRunner}. */
export interface TurnAgentRunnerOptions
  extends Pick<RunTurnOptions, 'orchestrator' | 'statusSource' | 'subject'>,
    Partial<
      Pick<
        RunTurnOptions,
        'retry' | 'temperature' | 'layout' | 'now' | 'verify' | 'meter' | 'modelTimeoutMs' | 'maxCallsPerStep'
      >
    > {
  /** Installed connectors, or the connectors one node may use (by node id). */
  connectors: Connectors | ((nodeId: string) => Connectors);
  /** Model for agent nodes that declare none; a node's own `LanguageModelV4` wins. */
  model?: RunTurnOptions['model'] | undefined;
  /** Records every node turn, stamped, under {@link TurnAgentRunnerOptions.threadId}. */
  threadStore?: RunTurnOptions['threadStore'] | undefined;
  /** Thread id of a node's turns; default `sacp:<correlation id>:<node id>`. */
  threadId?: ((request: Pick<RunAgentRequest, 'nodeId' | 'correlationId'>) => string) | undefined;
  /** Most model calls per node turn; default the node's `maxToolSteps` + 1 (the final reply). */
  maxSteps?: number | undefined;
  /** Called after every node turn with the turn runner's result (trace, thread). */
  onTurn?: ((event: TurnAgentEvent) => void) | undefined;
}

/** One node turn run through {@link runTurn}. */
export interface TurnAgentEvent {
  nodeId: string;
  correlationId: string;
  threadId: string;
  result: TurnResult;
}

const isLanguageModelV4 = (model: unknown): model is RunTurnOptions['model'] =>
  typeof model === 'object' &&
  model !== null &&
  (model as { specificationVersion?: unknown }).specificationVersion === 'v4';

function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * A `runAgent` hook for `defineChain` that runs every agent node through the orchestrator's turn
 * runner: fresh connector status per turn, only the exposed connector tools offered, every call
 * gated by `orchestrator.execute`, the ask-for-input retry loop. Only the turn's final reply is
 * parsed as SACP. A turn the runner ended by asking the user becomes `clarification_needed` (the
 * chain pauses with the questions); one stopped by the step limit, the signal or the model deadline
 * becomes `failure` (`turn_step_limit`, `turn_aborted`, `turn_timed_out`).
 */
export function turnAgentRunner(options: TurnAgentRunnerOptions): RunAgentHook {
  // The stamped form of each message a turn received, so a re-ask sends the history exactly as
  // the thread recorded it (same bytes, cacheable) rather than the chain's unstamped copy.
  const stampedForms = new WeakMap<ModelMessage, ModelMessage>();

  return async (request) => {
    if (request.tools && Object.keys(request.tools).length > 0) {
      throw new PatchbayError(
        'sacp_invalid_chain',
        `Agent node "${request.nodeId}" declares AI SDK tools, but it runs through the orchestrator's turn runner, which offers the connectors' tools. Provide them as a connector instead.`,
      );
    }
    const model = isLanguageModelV4(request.model) ? request.model : options.model;
    if (!model) {
      throw new PatchbayError(
        'sacp_invalid_chain',
        `Agent node "${request.nodeId}" needs an AI SDK LanguageModelV4 (on the node or as the runner's model) to run through the turn runner.`,
      );
    }
    const last = request.messages.at(-1);
    if (last?.role !== 'user') {
      throw new PatchbayError(
        'sacp_invalid_chain',
        `Agent node "${request.nodeId}" has no user message to answer.`,
      );
    }
    const history = request.messages.slice(0, -1).map((message) => stampedForms.get(message) ?? message);
    const threadId = options.threadId?.(request) ?? `sacp:${request.correlationId}:${request.nodeId}`;
    const connectors =
      typeof options.connectors === 'function' ? options.connectors(request.nodeId) : options.connectors;

    const result = await runTurn({
      model,
      thread: { id: threadId, messages: history },
      message: textOf(last),
      subject: options.subject,
      // A re-ask is a new turn: the turn loop's record of the calls that ran (which refuses a write
      // already done) starts empty, so the re-ask's calls are answered here without reaching the gate.
      orchestrator: (request.reask ?? 0) > 0 ? runningNoCalls(options.orchestrator) : options.orchestrator,
      connectors,
      statusSource: options.statusSource,
      // The node's prompt (SACP block included) leads; the connector protocol blocks follow it.
      identity: request.system,
      maxSteps: options.maxSteps ?? request.maxToolSteps + 1,
      ...(options.threadStore ? { threadStore: options.threadStore } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.layout ? { layout: options.layout } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.verify ? { verify: options.verify } : {}),
      ...(options.meter ? { meter: options.meter } : {}),
      ...(options.modelTimeoutMs !== undefined ? { modelTimeoutMs: options.modelTimeoutMs } : {}),
      ...(options.maxCallsPerStep !== undefined ? { maxCallsPerStep: options.maxCallsPerStep } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    options.onTurn?.({ nodeId: request.nodeId, correlationId: request.correlationId, threadId, result });

    const turnMessages = result.thread.messages.slice(history.length);
    const stampedUser = turnMessages[0];
    if (stampedUser) stampedForms.set(last, stampedUser);
    const toolOutputs: ToolOutput[] = result.trace.calls.map((call) => ({
      tool_name: call.toolName,
      input: call.arguments,
      // What the model read: compact, redacted, without meta (timings would make data unstable).
      output: JSON.parse(renderEnvelopeForModel(call.envelope)),
    }));
    const text =
      result.trace.outcome === 'replied' ? result.reply : JSON.stringify(replyForRunnerOutcome(result));
    return { text, responseMessages: turnMessages.slice(1), toolOutputs };
  };
}

/**
 * The gate as a re-ask turn sees it: the same tools offered (same prompt, and providers want the
 * tools of the history's calls declared), but every call answered with a refusal and nothing of the
 * gate that runs or decides anything (`execute`, approvals) reachable.
 */
function runningNoCalls(orchestrator: RunTurnOptions['orchestrator']): RunTurnOptions['orchestrator'] {
  const view: RunTurnOptions['orchestrator'] = {
    execute: async (toolName) => reaskCallRefusal(toolName),
  };
  if (orchestrator.getTool) view.getTool = orchestrator.getTool.bind(orchestrator);
  if (orchestrator.listTools) view.listTools = orchestrator.listTools.bind(orchestrator);
  if (orchestrator.listAgents) view.listAgents = orchestrator.listAgents.bind(orchestrator);
  if (orchestrator.health) view.health = orchestrator.health.bind(orchestrator);
  if (orchestrator.needsApproval) view.needsApproval = orchestrator.needsApproval.bind(orchestrator);
  return view;
}

/** The SACP reply for a turn the runner ended itself (asked the user, hit a limit, or was stopped). */
function replyForRunnerOutcome(result: TurnResult): SacpReply {
  const { questions, outcome } = result.trace;
  const failureCodes = {
    step_limit: 'turn_step_limit',
    aborted: 'turn_aborted',
    timed_out: 'turn_timed_out',
  } satisfies Record<string, PatchbayErrorCode>;
  if (outcome === 'step_limit' || outcome === 'aborted' || outcome === 'timed_out') {
    return {
      thought: '',
      status: 'failure',
      data: { error_code: failureCodes[outcome], ...(questions.length > 0 ? { questions } : {}) },
      message: result.reply,
    };
  }
  // When the model itself answered (in SACP) while calls still waited for the user, keep its reply
  // and add the questions; otherwise the runner wrote the reply and it is the message.
  const lastStep = result.trace.steps.at(-1);
  const modelText = lastStep && lastStep.toolCalls.length === 0 ? lastStep.text : undefined;
  const parsed = modelText === undefined ? undefined : parseSacp(modelText);
  const own = parsed?.ok ? parsed.reply : undefined;
  return {
    thought: own?.thought || 'A tool call needs information only the user can give.',
    status: 'clarification_needed',
    data: { ...(own?.data ?? {}), questions },
    message: own ? withQuestions(own.message, questions) : result.reply,
  };
}
