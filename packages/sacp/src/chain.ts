import { randomUUID } from 'node:crypto';
import { PatchbayError, type PatchbayErrorCode, redactString, toEnvelope } from '@patchbay/envelope';
import type { RunAgentHook } from './agent-turn.js';
import { type SacpAuditSink, toAuditRecord } from './audit-log.js';
import { type CompiledCondition, compileCondition } from './condition.js';
import { compileDataSchema } from './data-schema.js';
import type { Guardrail } from './guardrails.js';
import type { SacpIssue } from './issues.js';
import { agentNodeOptions, assertKnownOptions, edgeOptions, functionNodeOptions } from './node-options.js';
import {
  type ChainNode,
  isAgentNode,
  type NodeOutcome,
  type ResumeContext,
  runAgentNode,
  runFunctionNode,
} from './nodes.js';
import type { SacpRepair } from './parse-sacp.js';
import type { SacpReply, SacpStatus } from './reply.js';
import { replyForNextNode, sacpStatuses } from './reply.js';
import { type ResumeKey, resumeKeyRing, signCheckpoint, verifyCheckpoint } from './resume-token.js';
import { type InputTemplate, renderTemplate } from './template.js';

/** A directed edge; taken when its `status` filter and `when` expression both hold (edges are tried in order). */
export interface ChainEdge {
  from: string;
  to: string;
  /** Take the edge only for these statuses. */
  status?: SacpStatus | SacpStatus[] | undefined;
  /** filtrex expression over `status`, `data`, `message`, `thought`, `visits`, `step`, e.g. `data.score > 0.8`. */
  when?: string | undefined;
}

/** The definition of a chain (workflow) of agents and functions. */
export interface ChainDefinition {
  /** Name used in audits and checkpoints. */
  id?: string | undefined;
  nodes: Record<string, ChainNode>;
  edges?: ChainEdge[] | undefined;
  start: string;
  /** Most node runs in one run, resumes included (default 25); cycles end with a failure when they hit it. */
  maxSteps?: number | undefined;
  /** Default re-asks per agent node on an unreadable or schema-breaking reply (default 1). */
  maxReasks?: number | undefined;
  /** Checks run in order on every reply before it is passed on. */
  guardrails?: Guardrail[] | undefined;
  /** Receives one record per reply. */
  audit?: SacpAuditSink | undefined;
  /** Runs agent turns instead of calling the model directly (the orchestrator's turn runner plugs in here). */
  runAgent?: RunAgentHook | undefined;
  /**
   * Secret (at least 32 bytes) that signs and verifies resume tokens, so a token resumes in another
   * process or after a restart. Several keys: the first signs, any verifies (rotate by putting the
   * new key first). Without it the chain uses a random key of its own: its tokens resume only on the
   * same chain object.
   */
  resumeKey?: ResumeKey | readonly ResumeKey[] | undefined;
}

/** One node run in a chain's trace. */
export interface ChainTraceEntry {
  step: number;
  node: string;
  kind: 'agent' | 'function';
  startedAt: string;
  input: unknown;
  reply: SacpReply;
  ok: boolean;
  repairs: SacpRepair[];
  issues?: SacpIssue[] | undefined;
  reasks: number;
  /** Guardrails that changed the reply. */
  guardrails: string[];
  /** True when this run of the node followed a resume with the user's answer. */
  resumed?: boolean | undefined;
  /** The edge taken after this node; null when none matched (the run ended or paused here). */
  edge: { index: number; to: string; when?: string | undefined } | null;
  /** Conditions that failed at run time while choosing the edge. */
  conditionErrors?: string[] | undefined;
  /** Why the node failed, by code: a `PatchbayError`'s own or one of the `sacp_*` codes. */
  error?: { code: PatchbayErrorCode; message: string } | undefined;
}

/**
 * Everything needed to continue a paused run; JSON-serialisable. `resume` trusts a checkpoint object
 * as it is: keep it server-side, or hand out the signed `resumeToken` instead.
 */
export interface ChainCheckpoint {
  version: 1;
  chainId?: string | undefined;
  correlationId: string;
  input: unknown;
  node: string;
  /** The node that ran before the paused one. */
  previous?: string | undefined;
  question: string;
  steps: number;
  visits: Record<string, number>;
  outputs: Record<string, SacpReply>;
  trace: ChainTraceEntry[];
}

interface RunResultBase {
  correlationId: string;
  /** The last reply of the run. */
  reply: SacpReply;
  /** Latest reply of every node that ran. */
  outputs: Record<string, SacpReply>;
  trace: ChainTraceEntry[];
  steps: number;
}

/** How a run ended: done, failed (unhandled failure, step limit, template error), or paused for the user. */
export type ChainRunResult =
  | (RunResultBase & { state: 'done' })
  | (RunResultBase & { state: 'failed'; error: { code: PatchbayErrorCode; message: string } })
  | (RunResultBase & {
      state: 'paused';
      node: string;
      question: string;
      checkpoint: ChainCheckpoint;
      /** The checkpoint signed with the chain's resume key (readable, not encrypted; tamper-evident). */
      resumeToken: string;
    });

/** Per-run options. */
export interface ChainRunOptions {
  correlationId?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** A defined chain: `run` from the start node, `resume` a paused run with the user's answer. */
export interface Chain {
  readonly id: string | undefined;
  run(input: unknown, options?: ChainRunOptions): Promise<ChainRunResult>;
  resume(
    checkpoint: ChainCheckpoint | string,
    answer: unknown,
    options?: ChainRunOptions,
  ): Promise<ChainRunResult>;
}

interface CompiledEdge extends ChainEdge {
  index: number;
  statuses?: Set<SacpStatus> | undefined;
  condition?: CompiledCondition | undefined;
}

interface RunState {
  correlationId: string;
  input: unknown;
  answer?: unknown;
  current: string;
  /** The node that ran before `current`, for the default input. */
  previous?: string | undefined;
  steps: number;
  visits: Record<string, number>;
  outputs: Record<string, SacpReply>;
  trace: ChainTraceEntry[];
  resume?: ResumeContext | undefined;
}

const defaultMaxSteps = 25;
const reservedNames = new Set(['input', 'answer']);

/**
 * Defines a chain of agents and functions with conditional edges, input templates, guardrails and
 * audit. Validates the graph up front: throws `sacp_invalid_chain` / `sacp_invalid_condition`.
 */
export function defineChain(definition: ChainDefinition): Chain {
  const nodeIds = Object.keys(definition.nodes);
  const invalid = (message: string) => new PatchbayError('sacp_invalid_chain', message);
  if (!Object.hasOwn(definition.nodes, definition.start))
    throw invalid(`Start node "${definition.start}" is not defined.`);
  for (const id of nodeIds) {
    if (reservedNames.has(id) || id.includes('.') || /\s/.test(id) || id === '') {
      throw invalid(
        `Node id "${id}" is not allowed: ids must not be "input" or "answer" and must not contain dots or spaces.`,
      );
    }
    const node = definition.nodes[id] as ChainNode;
    if (isAgentNode(node) && !node.model && !definition.runAgent) {
      throw invalid(`Agent node "${id}" needs a model (or the chain a runAgent hook).`);
    }
    // Compiling now surfaces a broken data schema when the chain is defined, not mid-run.
    if (isAgentNode(node) && node.dataSchema) compileDataSchema(node.dataSchema);
    if (!isAgentNode(node) && typeof node !== 'function' && typeof node.run !== 'function') {
      throw invalid(
        `Node "${id}" must be an agent ({ model, system }), a function node ({ run }) or a function.`,
      );
    }
    if (typeof node !== 'function') {
      assertKnownOptions(node, isAgentNode(node) ? agentNodeOptions : functionNodeOptions, `Node "${id}"`);
    }
  }
  const maxSteps = definition.maxSteps ?? defaultMaxSteps;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw invalid('maxSteps must be a positive integer.');
  const edges: CompiledEdge[] = (definition.edges ?? []).map((edge, index) => {
    assertKnownOptions(edge, edgeOptions, `Edge ${index}`);
    for (const end of [edge.from, edge.to]) {
      if (!Object.hasOwn(definition.nodes, end))
        throw invalid(`Edge ${index} refers to unknown node "${end}".`);
    }
    const statuses =
      edge.status === undefined
        ? undefined
        : new Set(Array.isArray(edge.status) ? edge.status : [edge.status]);
    for (const status of statuses ?? []) {
      if (!(sacpStatuses as readonly string[]).includes(status))
        throw invalid(`Edge ${index} has unknown status "${status}".`);
    }
    return {
      ...edge,
      index,
      statuses,
      condition: edge.when === undefined ? undefined : compileCondition(edge.when),
    };
  });
  const maxReasks = definition.maxReasks ?? 1;
  const resumeKeys = resumeKeyRing(definition.resumeKey);

  const execute = async (state: RunState, options: ChainRunOptions): Promise<ChainRunResult> => {
    for (;;) {
      if (options.signal?.aborted) {
        return failed(state, 'sacp_aborted', 'The run was aborted.');
      }
      if (state.steps >= maxSteps) {
        return failed(
          state,
          'sacp_step_limit',
          `The chain stopped after reaching its step limit (maxSteps = ${maxSteps}).`,
        );
      }
      const nodeId = state.current;
      const node = definition.nodes[nodeId] as ChainNode;
      state.steps += 1;
      state.visits[nodeId] = (state.visits[nodeId] ?? 0) + 1;
      const step = state.steps;
      const startedAt = new Date().toISOString();
      const resume = state.resume;
      state.resume = undefined;
      const kind = isAgentNode(node) ? 'agent' : 'function';

      let input: unknown;
      try {
        input = renderTemplate(
          inputTemplateOf(node, state.previous),
          { input: state.input, answer: state.answer, outputs: state.outputs },
          nodeId,
        );
      } catch (error) {
        const code = PatchbayError.isInstance(error) ? error.code : 'sacp_template_error';
        const message = error instanceof Error ? error.message : String(error);
        const reply = errorReply(message, code);
        state.outputs[nodeId] = reply;
        state.trace.push({
          step,
          node: nodeId,
          kind,
          startedAt,
          input: null,
          reply,
          ok: false,
          repairs: [],
          reasks: 0,
          guardrails: [],
          edge: null,
          error: { code, message },
        });
        await writeAudit(state, nodeId, step, { reply, ok: false, repairs: [], reasks: 0 }, []);
        return failed(state, code, message, reply);
      }

      let outcome: NodeOutcome;
      let configurationError: { code: PatchbayErrorCode; message: string } | undefined;
      try {
        outcome = isAgentNode(node)
          ? await runAgentNode(node, input, {
              nodeId,
              correlationId: state.correlationId,
              maxReasks,
              runAgent: definition.runAgent,
              resume,
              signal: options.signal,
            })
          : await runFunctionNode(typeof node === 'function' ? node : node.run, input, {
              nodeId,
              correlationId: state.correlationId,
              step,
              answer: resume?.answer,
              outputs: repliesForNextNode(state.outputs),
              signal: options.signal,
            });
      } catch (error) {
        const envelope = toEnvelope(error, { correlationId: state.correlationId });
        // Our own `sacp_*` errors describe a mistake in the chain's set-up in words we wrote (no
        // secrets), so they are shown as they are; any other error only as its envelope's message.
        if (PatchbayError.isInstance(error) && error.code.startsWith('sacp_')) {
          configurationError = { code: error.code, message: error.message };
        }
        const detail = configurationError?.message ?? (envelope.ok ? 'unknown error' : envelope.user_message);
        outcome = {
          reply: {
            thought: '',
            status: 'failure',
            data: { error: envelope },
            message: redactString(`Node "${nodeId}" failed: ${detail}`),
          },
          ok: false,
          repairs: [],
          reasks: 0,
          toolOutputs: [],
        };
      }

      const guarded = await applyGuardrails(definition.guardrails ?? [], outcome.reply, {
        nodeId,
        correlationId: state.correlationId,
        step,
      });
      const reply = guarded.reply;
      state.outputs[nodeId] = reply;
      const entry: ChainTraceEntry = {
        step,
        node: nodeId,
        kind,
        startedAt,
        input,
        reply,
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
      await writeAudit(state, nodeId, step, outcome, guarded.applied, reply);

      if (reply.status === 'clarification_needed') {
        const checkpoint: ChainCheckpoint = {
          version: 1,
          chainId: definition.id,
          correlationId: state.correlationId,
          input: state.input,
          node: nodeId,
          previous: state.previous,
          question: reply.message,
          steps: state.steps,
          visits: { ...state.visits },
          outputs: { ...state.outputs },
          trace: [...state.trace],
        };
        return {
          state: 'paused',
          node: nodeId,
          question: reply.message,
          checkpoint,
          resumeToken: signCheckpoint(checkpoint, resumeKeys),
          ...base(state, reply),
        };
      }

      const conditionErrors: string[] = [];
      const scope = {
        status: reply.status,
        data: reply.data,
        message: reply.message,
        thought: reply.thought,
        next_step_hint: reply.next_step_hint,
        visits: state.visits[nodeId] ?? 0,
        step,
      };
      const taken = edges.find((edge) => {
        if (edge.from !== nodeId) return false;
        if (edge.statuses && !edge.statuses.has(reply.status)) return false;
        if (!edge.condition) return true;
        const result = edge.condition(scope);
        if (result.error) conditionErrors.push(`edge ${edge.index} (${edge.when}): ${result.error}`);
        return result.matched;
      });
      if (conditionErrors.length > 0) entry.conditionErrors = conditionErrors;
      if (!taken) {
        if (reply.status === 'failure') {
          return failed(
            state,
            'sacp_unhandled_failure',
            `Node "${nodeId}" failed and no edge handles its failure: ${reply.message}`,
            reply,
          );
        }
        return { state: 'done', ...base(state, reply) };
      }
      entry.edge = { index: taken.index, to: taken.to, ...(taken.when ? { when: taken.when } : {}) };
      state.previous = nodeId;
      state.current = taken.to;
    }
  };

  const writeAudit = async (
    state: RunState,
    node: string,
    step: number,
    outcome: Pick<NodeOutcome, 'reply' | 'ok' | 'repairs' | 'reasks' | 'issues'>,
    guardrails: string[],
    reply: SacpReply = outcome.reply,
  ) => {
    if (!definition.audit) return;
    await definition.audit.write(
      toAuditRecord({
        reply,
        correlationId: state.correlationId,
        chainId: definition.id,
        node,
        step,
        ok: outcome.ok,
        repairs: outcome.repairs,
        reasks: outcome.reasks,
        guardrails,
        issues: outcome.issues,
      }),
    );
  };

  return {
    id: definition.id,
    async run(input, options = {}) {
      const state: RunState = {
        correlationId: options.correlationId ?? randomUUID(),
        input,
        current: definition.start,
        steps: 0,
        visits: {},
        outputs: {},
        trace: [],
      };
      return execute(state, options);
    },
    async resume(checkpointOrToken, answer, options = {}) {
      // A token comes back from outside and must verify; a checkpoint object is the caller's own state.
      const checkpoint =
        typeof checkpointOrToken === 'object' && checkpointOrToken !== null
          ? checkpointOrToken
          : verifyCheckpoint(checkpointOrToken, resumeKeys);
      if (checkpoint.version !== 1 || !Object.hasOwn(definition.nodes, checkpoint.node)) {
        throw new PatchbayError('sacp_invalid_checkpoint', 'The checkpoint does not belong to this chain.');
      }
      if (checkpoint.chainId !== definition.id) {
        throw new PatchbayError(
          'sacp_invalid_checkpoint',
          `The checkpoint belongs to chain "${checkpoint.chainId ?? '(unnamed)'}", not "${definition.id ?? '(unnamed)'}".`,
        );
      }
      const previousReply = checkpoint.outputs[checkpoint.node];
      if (!previousReply)
        throw new PatchbayError(
          'sacp_invalid_checkpoint',
          'The checkpoint has no reply for its paused node.',
        );
      const state: RunState = {
        correlationId: options.correlationId ?? checkpoint.correlationId,
        input: checkpoint.input,
        answer,
        current: checkpoint.node,
        previous: checkpoint.previous,
        steps: checkpoint.steps,
        visits: { ...checkpoint.visits },
        outputs: { ...checkpoint.outputs },
        trace: [...checkpoint.trace],
        resume: { previousReply, answer },
      };
      return execute(state, options);
    },
  };
}

function repliesForNextNode(outputs: Record<string, SacpReply>): Record<string, SacpReply> {
  return Object.fromEntries(Object.entries(outputs).map(([id, reply]) => [id, replyForNextNode(reply)]));
}

function inputTemplateOf(node: ChainNode, previous: string | undefined): InputTemplate {
  const explicit = typeof node === 'function' ? undefined : node.input;
  if (explicit !== undefined) return explicit;
  // Without a template the start node sees the run input and later nodes the previous reply.
  return previous ? `{{${previous}}}` : '{{input}}';
}

async function applyGuardrails(
  guardrails: Guardrail[],
  reply: SacpReply,
  context: { nodeId: string; correlationId: string; step: number },
): Promise<{ reply: SacpReply; applied: string[] }> {
  let current = reply;
  const applied: string[] = [];
  for (const guardrail of guardrails) {
    const changed = await guardrail.apply(current, context);
    if (changed) {
      current = changed;
      applied.push(guardrail.name);
    }
  }
  return { reply: current, applied };
}

function errorReply(message: string, code: PatchbayErrorCode): SacpReply {
  return { thought: '', status: 'failure', data: { error_code: code }, message };
}

function base(state: RunState, reply: SacpReply): RunResultBase {
  return {
    correlationId: state.correlationId,
    reply,
    outputs: state.outputs,
    trace: state.trace,
    steps: state.steps,
  };
}

function failed(
  state: RunState,
  code: PatchbayErrorCode,
  message: string,
  reply?: SacpReply,
): ChainRunResult {
  const last = reply ?? errorReply(message, code);
  return { state: 'failed', error: { code, message }, ...base(state, last) };
}
