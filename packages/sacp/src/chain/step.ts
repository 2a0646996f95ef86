import { PatchbayError, type PatchbayErrorCode, redactString, toEnvelope } from '@patchbay/envelope';
import { toAuditRecord } from '../audit-log.js';
import { applyGuardrails } from '../guardrails.js';
import {
  type ChainNode,
  isAgentNode,
  type NodeOutcome,
  type ResumeContext,
  runAgentNode,
  runFunctionNode,
} from '../nodes.js';
import { replyForNextNode, type SacpReply } from '../reply.js';
import { type InputTemplate, renderTemplate } from '../template.js';
import type { CompiledChain } from './compile.js';
import { errorReply, failedResult, type RunState } from './state.js';
import type { ChainRunResult, ChainTraceEntry } from './types.js';

/** What one step left: the node's reply after guardrails and its trace entry, or a result that ends the run. */
export type StepResult =
  | { ended: false; nodeId: string; reply: SacpReply; entry: ChainTraceEntry }
  | { ended: true; result: ChainRunResult };

/** The node a step runs and where in the run it is. */
interface StepStart {
  nodeId: string;
  node: ChainNode;
  kind: ChainTraceEntry['kind'];
  step: number;
  startedAt: string;
  /** Present when this run of the node answers a pause. */
  resume: ResumeContext | undefined;
}

type ChainError = { code: PatchbayErrorCode; message: string };

/**
 * Runs the current node once: renders its input, runs it (a throw becomes a failure reply), applies
 * the guardrails, records the reply in the outputs, the trace and the audit. A template that cannot
 * be rendered ends the run.
 */
export async function runStep(
  chain: CompiledChain,
  state: RunState,
  signal: AbortSignal | undefined,
): Promise<StepResult> {
  const start = beginStep(chain, state);
  const rendered = renderInput(start, state);
  if ('error' in rendered) {
    return { ended: true, result: await failOnTemplate(chain, state, start, rendered.error) };
  }
  const { outcome, configurationError } = await runNode(chain, state, start, rendered.input, signal);
  const { nodeId, step, resume } = start;
  const guarded = await applyGuardrails(chain.definition.guardrails ?? [], outcome.reply, {
    nodeId,
    correlationId: state.correlationId,
    step,
  });
  const reply = guarded.reply;
  state.outputs[nodeId] = reply;
  const entry: ChainTraceEntry = {
    ...traceHead(start, rendered.input, reply),
    ok: outcome.ok,
    repairs: outcome.repairs,
    ...(outcome.issues ? { issues: outcome.issues } : {}),
    reasks: outcome.reasks,
    guardrails: guarded.applied,
    ...(resume ? { resumed: true } : {}),
    edge: null,
    ...(configurationError ? { error: configurationError } : {}),
  };
  state.trace.push(entry);
  await writeAudit(chain, state, start, outcome, guarded.applied, reply);
  return { ended: false, nodeId, reply, entry };
}

// Counts the step and the visit before anything can fail, so a failing step still counts.
function beginStep(chain: CompiledChain, state: RunState): StepStart {
  const nodeId = state.current;
  const node = chain.definition.nodes[nodeId] as ChainNode;
  state.steps += 1;
  state.visits[nodeId] = (state.visits[nodeId] ?? 0) + 1;
  const resume = state.resume;
  state.resume = undefined;
  return {
    nodeId,
    node,
    kind: isAgentNode(node) ? 'agent' : 'function',
    step: state.steps,
    startedAt: new Date().toISOString(),
    resume,
  };
}

function renderInput(start: StepStart, state: RunState): { input: unknown } | { error: ChainError } {
  try {
    const template = inputTemplateOf(start.node, state.previous);
    const scope = { input: state.input, answer: state.answer, outputs: state.outputs };
    return { input: renderTemplate(template, scope, start.nodeId) };
  } catch (error) {
    return {
      error: {
        code: PatchbayError.isInstance(error) ? error.code : 'sacp_template_error',
        message: error instanceof Error ? error.message : String(error),
      },
    };
  }
}

function inputTemplateOf(node: ChainNode, previous: string | undefined): InputTemplate {
  const explicit = typeof node === 'function' ? undefined : node.input;
  if (explicit !== undefined) return explicit;
  // Without a template the start node sees the run input and later nodes the previous reply.
  return previous ? `{{${previous}}}` : '{{input}}';
}

// The node never ran: no guardrails, and the trace entry has no input.
async function failOnTemplate(
  chain: CompiledChain,
  state: RunState,
  start: StepStart,
  error: ChainError,
): Promise<ChainRunResult> {
  const reply = errorReply(error.message, error.code);
  state.outputs[start.nodeId] = reply;
  state.trace.push({
    ...traceHead(start, null, reply),
    ok: false,
    repairs: [],
    reasks: 0,
    guardrails: [],
    edge: null,
    error,
  });
  await writeAudit(chain, state, start, { reply, ok: false, repairs: [], reasks: 0 }, []);
  return failedResult(state, error.code, error.message, reply);
}

function traceHead(start: StepStart, input: unknown, reply: SacpReply) {
  return { step: start.step, node: start.nodeId, kind: start.kind, startedAt: start.startedAt, input, reply };
}

async function runNode(
  chain: CompiledChain,
  state: RunState,
  start: StepStart,
  input: unknown,
  signal: AbortSignal | undefined,
): Promise<{ outcome: NodeOutcome; configurationError?: ChainError | undefined }> {
  const { node, nodeId, step, resume } = start;
  const { correlationId } = state;
  try {
    const outcome = isAgentNode(node)
      ? await runAgentNode(node, input, {
          nodeId,
          correlationId,
          maxReasks: chain.maxReasks,
          runAgent: chain.definition.runAgent,
          resume,
          signal,
        })
      : await runFunctionNode(typeof node === 'function' ? node : node.run, input, {
          nodeId,
          correlationId,
          step,
          answer: resume?.answer,
          outputs: repliesForNextNode(state.outputs),
          signal,
        });
    return { outcome };
  } catch (error) {
    return nodeFailure(error, nodeId, correlationId);
  }
}

function repliesForNextNode(outputs: Record<string, SacpReply>): Record<string, SacpReply> {
  return Object.fromEntries(Object.entries(outputs).map(([id, reply]) => [id, replyForNextNode(reply)]));
}

/** A node that threw: a failure reply carrying the error's envelope, and the chain's own error when it is one. */
function nodeFailure(
  error: unknown,
  nodeId: string,
  correlationId: string,
): { outcome: NodeOutcome; configurationError?: ChainError | undefined } {
  const envelope = toEnvelope(error, { correlationId });
  // Our own `sacp_*` errors describe a mistake in the chain's set-up in words we wrote (no
  // secrets), so they are shown as they are; any other error only as its envelope's message.
  const configurationError =
    PatchbayError.isInstance(error) && error.code.startsWith('sacp_')
      ? { code: error.code, message: error.message }
      : undefined;
  const detail = configurationError?.message ?? (envelope.ok ? 'unknown error' : envelope.user_message);
  const reply: SacpReply = {
    thought: '',
    status: 'failure',
    data: { error: envelope },
    message: redactString(`Node "${nodeId}" failed: ${detail}`),
  };
  return { outcome: { reply, ok: false, repairs: [], reasks: 0, toolOutputs: [] }, configurationError };
}

async function writeAudit(
  chain: CompiledChain,
  state: RunState,
  start: StepStart,
  outcome: Pick<NodeOutcome, 'reply' | 'ok' | 'repairs' | 'reasks' | 'issues'>,
  guardrails: string[],
  reply: SacpReply = outcome.reply,
): Promise<void> {
  const { audit, id: chainId } = chain.definition;
  if (!audit) return;
  await audit.write(
    toAuditRecord({
      reply,
      correlationId: state.correlationId,
      chainId,
      node: start.nodeId,
      step: start.step,
      ok: outcome.ok,
      repairs: outcome.repairs,
      reasks: outcome.reasks,
      guardrails,
      issues: outcome.issues,
    }),
  );
}
