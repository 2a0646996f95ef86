import { createHash, randomUUID } from 'node:crypto';
import type { JSONSchema7 } from '@ai-sdk/provider';
import type { StatusSnapshot } from '@patchbay/connector';
import type { StatusSource } from '@patchbay/connector/ports';
import { type Envelope, failure, interactiveErrorTypes, success } from '@patchbay/envelope';
import { canonicalJson } from '@patchbay/helpers';
import {
  type ConnectorStatusWire,
  captureStatus,
  refreshConnectorStatusTool,
  renderTurnContext,
  toIsoSeconds,
  toLanguageModelTools,
} from '@patchbay/protocol';
import { type CallState, decideCall } from './call-decision.js';
import { callIdentity } from './call-identity.js';
import { mapModelToolNames } from './model-tool-names.js';
import { askUserReply, buildRetryGuidance, type InteractiveFailure, questionsOf } from './retry-guidance.js';
import { statusUnreadableNote } from './run-turn.js';
import { type StatusView, statusViewOf } from './status-view.js';
import { modelOutputOf, parseArguments } from './step-calls.js';
import { decideAfterStep } from './step-decision.js';
import { createTurnMemory } from './turn-memory.js';
import { staticPromptOf } from './turn-prompt.js';
import { resolveTurnSettings } from './turn-settings.js';
import { type AgentView, type ToolOffer, toolFacts, viewAgents } from './turn-tools.js';
import type { RetryOptions, RunTurnOptions, SkipReason, TurnCall } from './turn-types.js';

/** The orchestrator a session drives: the turn's, plus the approval calls a framework's approval step needs. */
export type SessionOrchestrator = RunTurnOptions['orchestrator'];

/** Options of {@link createTurnSession}. */
export interface TurnSessionOptions {
  /** Whose connectors: the user (or workspace) id the status and every call are for. */
  subject: string;
  /** The gate every call goes through. */
  orchestrator: SessionOrchestrator;
  /** Installed connectors. */
  connectors: RunTurnOptions['connectors'];
  /** Where the subject's connections are read from, fresh at every step. */
  statusSource: StatusSource;
  /** The deployment's status-block settings, as for `runTurn`. */
  statusBlock?: RunTurnOptions['statusBlock'];
  /** Live credential checks during status capture. */
  verify?: RunTurnOptions['verify'];
  /** Clock for capture times. */
  now?: () => Date;
  /** Who the agent is: first section of {@link TurnSession.systemPrompt}. */
  identity?: string;
  /** Adds the static connector catalog to {@link TurnSession.systemPrompt}. */
  catalog?: boolean;
  /** A complete static system prompt instead of the one built from `identity` (as `runTurn`'s). */
  systemPrompt?: string;
  /**
   * Everything the user wrote in this conversation. When given, a retried call that fills a field only
   * the user can supply with a value the user never wrote is not sent (the turn's grounding rule).
   */
  userText?: string;
  /** The ask-for-input retry loop: `totalAttempts` (default 3) and `needsInput`. */
  retry?: Pick<RetryOptions, 'totalAttempts' | 'needsInput'>;
  /** Most tool calls run between two steps: default 16. Further calls answer `rate_limited`. */
  maxCallsPerStep?: number;
  /** Most characters of one tool result the model reads: default 20,000. */
  maxResultChars?: number;
  /** Cancels the session's calls: calls not yet sent are answered without running. */
  signal?: AbortSignal;
  /** Receives what the session does, as it happens (tool calls, envelopes, approvals, status). */
  onEvent?: (event: SessionEvent) => void;
}

/** A tool as a framework registers it: name, description, JSON Schema, and whether a person approves it. */
export interface SessionTool {
  name: string;
  description: string;
  inputJsonSchema: JSONSchema7;
  /** Whether the gate waits for a person's approval before running a call of it. */
  needsApproval: boolean;
}

/** What one step of the framework's loop gets: fresh status, the context block, the runnable tools. */
export interface StepPlan {
  /** 0 for the first step. */
  index: number;
  /** Capture time of the status (ISO). */
  capturedAt: string;
  /** The per-turn context: `<current_time>` and `<connector_status>`, rendered from a fresh capture. */
  context: string;
  /** The `<connector_status>` object. */
  connectorStatus: Record<string, ConnectorStatusWire>;
  /** Names of the tools the model may call in this step, in the turn's stable order. */
  activeTools: string[];
  /** Their definitions, in the same order. */
  tools: SessionTool[];
  /**
   * Set when the previous step's failures hand the turn to the user (attempts used up, or input
   * only the user can give): offer no tools and reply with this. `activeTools` is then empty.
   */
  askUser?: { questions: string[]; reply: string };
}

/** The answer to one call: the envelope, and what the model reads as the tool result. */
export interface SessionCallResult {
  envelope: Envelope;
  /** The compact, redacted envelope as JSON, with `retry_guidance` when the call can be fixed and retried. */
  output: unknown;
  /** Whether the call reached the gate (or, for the meta-tool, a status capture ran). */
  sent: boolean;
  skipped?: SkipReason;
  /** Set when the gate answered `approval_required`: the proposal a person decides. */
  proposalId?: string;
}

/** What a session (and a streaming turn) reports as it happens. */
export type SessionEvent =
  | {
      type: 'status';
      capturedAt: string;
      connectorStatus: Record<string, ConnectorStatusWire>;
      tools: string[];
    }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | {
      type: 'tool-result';
      toolCallId: string;
      toolName: string;
      envelope: Envelope;
      output: unknown;
      sent: boolean;
      skipped?: SkipReason;
    }
  | {
      type: 'approval-requested';
      toolCallId: string;
      toolName: string;
      proposalId: string;
      input: unknown;
      message: string;
    }
  | { type: 'question'; questions: string[] };

/** Patchbay inside a loop someone else owns: one user turn of a framework's agent. */
export interface TurnSession {
  readonly turnId: string;
  /** The static system prompt (byte-stable across turns and users): identity and the protocol blocks. */
  readonly systemPrompt: string;
  /**
   * Starts a step: captures status fresh and says what the model may call now. Call it before every
   * model call (AI SDK `prepareStep`, an Agents `isEnabled` pass, a LangGraph node).
   */
  prepareStep(): Promise<StepPlan>;
  /** The plan of the current step, once {@link TurnSession.prepareStep} ran. */
  readonly plan: StepPlan | undefined;
  /**
   * Runs one tool call the model made: decided by the turn's call table (not offered now, a repeat of
   * an answered call, a write already done, a value the user never gave → answered without running),
   * else sent through the gate. `approvedBy` says a person approved this exact call in the framework's
   * own approval step: the gate's pending proposal for it (see `propose`) is approved and run once in
   * their name; with none pending (already run, decided, never proposed) nothing runs (`conflict`).
   */
  call(
    toolName: string,
    input: unknown,
    options?: { toolCallId?: string; signal?: AbortSignal; approvedBy?: string },
  ): Promise<SessionCallResult>;
  /**
   * Asks the gate about a call a framework is about to pause on for a person's approval: the gate makes
   * (or finds, for the identical call) its pending proposal, and nothing runs. The answer carries the
   * proposal id to show the person; the later `call(..., { approvedBy })` of the same call runs that
   * proposal once. A call the gate would not ask approval for is answered as `call` would answer it,
   * without running: `sent` is false and `envelope` says why it cannot run, or is `ok` when it could.
   */
  propose(toolName: string, input: unknown, options?: { toolCallId?: string }): Promise<SessionCallResult>;
  /** Decides a proposal the gate made: approve (run once) or reject. */
  decide(
    proposalId: string,
    decision: { approved: boolean; reason?: string; decidedBy?: string },
  ): Promise<SessionCallResult>;
  /** Whether the gate waits for a person before running a call of the tool. */
  needsApproval(toolName: string): boolean;
  /** Every tool the session could ever offer (for frameworks that register tools once, then filter per step). */
  allTools(): Promise<SessionTool[]>;
  /** Every call so far, with its envelope. */
  readonly calls: readonly TurnCall[];
}

/** Every tool a deployment could offer, under the names the model is shown. */
interface EveryTool {
  /** The registry's tools it was built from (compared by identity). */
  registered: readonly { name: string }[];
  tools: SessionTool[];
  /** Model name → real name. */
  toReal: ReadonlyMap<string, string>;
}

/** {@link EveryTool} by orchestrator, then by connector list: a session per request need not build it. */
const everyToolCache = new WeakMap<object, WeakMap<TurnSessionOptions['connectors'], EveryTool>>();

const sameTools = (left: readonly object[], right: readonly object[]) =>
  left.length === right.length && left.every((tool, index) => tool === right[index]);

/**
 * Every connector tool, every tool of the orchestrator's other agents and the refresh tool, sorted
 * by the name the model is shown (mapped where model APIs would refuse the real one). Approval as
 * the gate decides it now; checked again whenever the list is reused.
 */
function everyToolOf(
  connectors: TurnSessionOptions['connectors'],
  registered: ReturnType<NonNullable<SessionOrchestrator['listTools']>>,
  needsApproval: (realName: string) => boolean,
): EveryTool {
  const everything = new Map<string, { name: string; description?: string; inputSchema: JSONSchema7 }>();
  const connectorTools = connectors.flatMap((connector) =>
    connector.tools.map((tool) => ({ ...tool, connectorId: tool.connectorId ?? connector.id })),
  );
  for (const definition of toLanguageModelTools(connectorTools)) everything.set(definition.name, definition);
  for (const tool of registered) {
    if (tool.connectorId !== undefined || everything.has(tool.name)) continue;
    everything.set(tool.name, {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputJsonSchema as JSONSchema7,
    });
  }
  for (const definition of toLanguageModelTools([refreshConnectorStatusTool])) {
    everything.set(definition.name, definition);
  }
  // Registered once by the framework under the names the model may call (mapped where needed).
  const { toModel } = mapModelToolNames(everything.keys());
  const toReal = new Map<string, string>();
  for (const [real, shown] of toModel) toReal.set(shown, real);
  const tools = [...everything.values()]
    .map(
      (definition): SessionTool => ({
        name: toModel.get(definition.name)!,
        description: definition.description ?? '',
        inputJsonSchema: definition.inputSchema,
        needsApproval: needsApproval(definition.name),
      }),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { registered, tools, toReal };
}

/** The turn's rules, for frameworks that own their loop: status per step, offers, the call table, the gate. */
export function createTurnSession(options: TurnSessionOptions): TurnSession {
  const settings = resolveTurnSettings({
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.maxCallsPerStep !== undefined ? { maxCallsPerStep: options.maxCallsPerStep } : {}),
    ...(options.maxResultChars !== undefined ? { maxResultChars: options.maxResultChars } : {}),
  } as RunTurnOptions);
  const clock = options.now ?? (() => new Date());
  const turnId = randomUUID();
  const { connectors, orchestrator, subject } = options;
  const memory = createTurnMemory();
  const calls: TurnCall[] = [];
  const emit = options.onEvent ?? (() => {});
  let step = -1;
  let positionInStep = 0;
  let stepFailures: InteractiveFailure[] = [];
  let stepUngrounded: InteractiveFailure | undefined;
  let stepSucceeded: string[] = [];
  let plan: StepPlan | undefined;
  let offer: ToolOffer | undefined;
  let snapshot: StatusSnapshot | undefined;
  let agents: AgentView | undefined;
  let view: StatusView | undefined;
  const viewSettings = {
    connectors,
    statusBlock: options.statusBlock,
    catalogInSystemPrompt: options.catalog === true,
  };

  const systemPrompt =
    options.systemPrompt ?? staticPromptOf(connectors, options.identity, options.catalog === true);
  const toSessionTool = (definition: { name: string; description?: string; inputSchema: JSONSchema7 }) => ({
    name: definition.name,
    description: definition.description ?? '',
    inputJsonSchema: definition.inputSchema,
    needsApproval: orchestrator.needsApproval?.(realNameOf(definition.name) ?? definition.name) ?? false,
  });
  /** The session tools of the last offer: built again only when the offer (the status) changed. */
  let defined: { offer: ToolOffer; tools: SessionTool[] } | undefined;
  const sessionToolsOf = (current: ToolOffer): SessionTool[] => {
    if (defined?.offer === current && defined.tools.every(sameApproval)) return defined.tools;
    defined = { offer: current, tools: current.tools.map(toSessionTool) };
    return defined.tools;
  };
  const sameApproval = (tool: SessionTool) =>
    tool.needsApproval === (orchestrator.needsApproval?.(realNameOf(tool.name) ?? tool.name) ?? false);

  /**
   * Captures status. When the status source fails, the step goes on with what can be known (seed
   * 000), as `runTurn`'s does: no connector, and no MCP server or function either (the admin policy
   * came from the same failed read), the refresh tool only, and `false` so the plan says why.
   */
  async function capture(): Promise<boolean> {
    let readable = true;
    try {
      snapshot = await captureStatus({
        connectors,
        source: options.statusSource,
        subject,
        now: clock,
        ...(options.verify ? { verify: options.verify } : {}),
      });
      agents = await viewAgents(orchestrator, snapshot);
    } catch {
      readable = false;
      snapshot = { subject, capturedAt: toIsoSeconds(clock()), connectors: {}, unknownConnectorIds: [] };
      agents = { tools: [], servers: [] };
    }
    // The block, its JSON and the offer follow from the status: computed once per distinct status.
    view = statusViewOf(snapshot, agents, viewSettings);
    offer = view.offer;
    if (options.onEvent) {
      emit({
        type: 'status',
        capturedAt: snapshot.capturedAt,
        connectorStatus: view.wire,
        tools: offer.names,
      });
    }
    return readable;
  }

  /** The step decision over the previous step's calls: retry with guidance, hand to the user, or go on. */
  function closeStep(): StepPlan['askUser'] {
    if (step < 0) return undefined;
    memory.closeSequences(stepSucceeded);
    const decision = decideAfterStep(
      { failures: stepFailures, ungrounded: stepUngrounded },
      memory.attempt,
      settings,
    );
    if (decision.next === 'retry') memory.openRetry(decision.failures);
    if (decision.next !== 'ask_user') return undefined;
    const questions = questionsOf(decision.failures);
    emit({ type: 'question', questions });
    return { questions, reply: askUserReply(decision.failures) };
  }

  function decorate(envelope: Envelope, toolName: string): unknown {
    const output = modelOutputOf(envelope, settings.maxResultChars);
    const value = output.type === 'json' || output.type === 'text' ? output.value : undefined;
    if (envelope.ok || !interactiveErrorTypes.has(envelope.error_type) || output.type !== 'json') {
      return value;
    }
    // The framework's loop adds no message between steps: the guidance travels with the result.
    const guidance = buildRetryGuidance(
      [{ toolName, envelope }],
      memory.attempt + 2,
      settings.maxAttempts + 1,
    );
    return { ...(value as object), retry_guidance: guidance };
  }

  async function record(
    toolName: string,
    toolCallId: string,
    input: unknown,
    answer: { envelope: Envelope; sent: boolean; skipped?: SkipReason; correlationId?: string },
  ): Promise<SessionCallResult> {
    const { envelope } = answer;
    const owner = answer.sent ? offer?.owners.get(toolName) : undefined;
    calls.push({
      step: Math.max(step, 0),
      attempt: memory.attempt,
      toolCallId,
      toolName,
      arguments: input,
      envelope,
      sent: answer.sent,
      ...(answer.skipped ? { skipped: answer.skipped } : {}),
      ...(answer.correlationId ? { correlationId: answer.correlationId } : {}),
      ...(owner !== undefined ? { owner } : {}),
    });
    if (!envelope.ok && interactiveErrorTypes.has(envelope.error_type)) {
      if (answer.skipped === 'ungrounded_input') stepUngrounded = { toolName, envelope };
      else stepFailures.push({ toolName, envelope });
    } else if (envelope.ok) stepSucceeded.push(toolName);
    const output = decorate(envelope, toolName);
    const proposalId =
      !envelope.ok && envelope.error_type === 'approval_required' ? envelope.proposal_id : undefined;
    emit({
      type: 'tool-result',
      toolCallId,
      toolName,
      envelope,
      output,
      sent: answer.sent,
      ...(answer.skipped ? { skipped: answer.skipped } : {}),
    });
    if (proposalId !== undefined) {
      emit({
        type: 'approval-requested',
        toolCallId,
        toolName,
        proposalId,
        input,
        message: envelope.ok ? '' : envelope.user_message,
      });
    }
    return {
      envelope,
      output,
      sent: answer.sent,
      ...(answer.skipped ? { skipped: answer.skipped } : {}),
      ...(proposalId !== undefined ? { proposalId } : {}),
    };
  }

  /**
   * A call as the call table reads it: the arguments (a framework that passes the model's JSON text
   * gets it parsed as `runTurn` parses it), what the turn knows of the tool, and the call's identity.
   */
  function readCall(toolName: string, input: unknown) {
    const args: CallState['arguments'] =
      typeof input === 'string' ? parseArguments(input) : { ok: true, value: input ?? {} };
    const text = typeof input === 'string' ? input : JSON.stringify(input ?? {});
    const facts = toolFacts(toolName, connectors, orchestrator);
    return { args, facts, identity: callIdentity(toolName, { input: text, arguments: args }, facts) };
  }

  /**
   * Runs the call a person approved in the framework's own approval step: the gate's pending proposal
   * for exactly this call (made by `propose` when the framework paused) is approved and run once, in
   * their name. Never a new proposal: an approval replayed after its call ran (the same request sent
   * again, a second tab) finds nothing pending and runs nothing. Undefined when none is pending.
   */
  async function runApproved(
    toolName: string,
    value: unknown,
    approvedBy: string,
    correlationId: string,
    signal: AbortSignal | undefined,
  ): Promise<Envelope | undefined> {
    if (!orchestrator.listProposals || !orchestrator.approveAndExecute) return undefined;
    const hash = createHash('sha256').update(canonicalJson(value)).digest('hex');
    const pending = (await orchestrator.listProposals({ subject, state: 'pending' })).find(
      (proposal) => proposal.tool === toolName && proposal.argsHash === hash,
    );
    if (pending === undefined) return undefined;
    try {
      return await orchestrator.approveAndExecute(
        pending.id,
        { decidedBy: approvedBy },
        { correlationId, ...(signal ? { signal } : {}) },
      );
    } catch {
      // Decided meanwhile by someone else (the CLI, the console, a concurrent request).
      return undefined;
    }
  }

  /** Every model name the session has shown (offers and `allTools`) → the real name. */
  let shownNames: ReadonlyMap<string, string> = new Map();
  const realNameOf = (name: string): string | undefined => offer?.toReal.get(name) ?? shownNames.get(name);

  const session: TurnSession = {
    turnId,
    systemPrompt,
    get plan() {
      return plan;
    },
    get calls() {
      return calls;
    },
    async prepareStep() {
      const askUser = closeStep();
      step += 1;
      positionInStep = 0;
      stepFailures = [];
      stepUngrounded = undefined;
      stepSucceeded = [];
      memory.startStep();
      const readable = await capture();
      plan = {
        index: step,
        capturedAt: snapshot!.capturedAt,
        context:
          renderTurnContext(snapshot!, { connectors, statusJson: view!.contextJson }) +
          (readable ? '' : `\n${statusUnreadableNote}`),
        connectorStatus: view!.wire,
        activeTools: askUser ? [] : offer!.tools.map((tool) => tool.name),
        tools: askUser ? [] : sessionToolsOf(offer!),
        ...(askUser ? { askUser } : {}),
      };
      return plan;
    },
    async call(calledName, input, callOptions = {}) {
      if (plan === undefined) await session.prepareStep();
      // The framework hands the name the model called; the gate and the trace use the real one.
      const shown = realNameOf(calledName);
      const toolName = shown ?? calledName;
      const toolCallId = callOptions.toolCallId ?? `${turnId}:${calls.length}`;
      const signal = callOptions.signal ?? options.signal;
      emit({ type: 'tool-call', toolCallId, toolName, input });
      const { args, facts, identity } = readCall(toolName, input);
      const action = decideCall(
        {
          toolName,
          arguments: args,
          identity,
          positionInStep: positionInStep++,
          cancelled: signal?.aborted === true,
          offered: shown !== undefined && offer!.names.includes(toolName) && plan!.askUser === undefined,
          notOfferedBecause: offer!.unavailable.get(toolName),
        },
        memory,
        {
          maxCallsPerStep: settings.maxCallsPerStep,
          requireUserGroundedInput: options.userText !== undefined && settings.requireUserGroundedInput,
          userText: options.userText ?? '',
        },
      );
      if (action.kind === 'skip') {
        return record(toolName, toolCallId, input, {
          envelope: action.envelope,
          sent: false,
          skipped: action.reason,
        });
      }
      if (action.kind === 'refresh_status') {
        const before = { snapshot, agents, offer, view };
        if (!(await capture())) {
          // What was read earlier this step stays: a failed refresh is no reason to know less.
          ({ snapshot, agents, offer, view } = before);
          return record(toolName, toolCallId, input, {
            envelope: failure('tool_unavailable', {
              userMessage: 'Connector status could not be read just now. Try again shortly.',
              retryable: true,
            }),
            sent: true,
          });
        }
        return record(toolName, toolCallId, input, {
          envelope: success({ captured_at: snapshot!.capturedAt, connector_status: view!.wire }),
          sent: true,
        });
      }
      const correlationId = `${turnId}:${toolCallId}`;
      const value = (args as { value: unknown }).value;
      const envelope =
        callOptions.approvedBy !== undefined && orchestrator.needsApproval?.(toolName) === true
          ? await runApproved(toolName, value, callOptions.approvedBy, correlationId, signal)
          : await orchestrator.execute(toolName, value, {
              subject,
              correlationId,
              ...(signal ? { signal } : {}),
            });
      if (envelope === undefined) {
        return record(toolName, toolCallId, input, {
          envelope: failure('conflict', {
            userMessage: `No approval is pending for this exact ${toolName} call: it already ran, was decided, or was never proposed. It was not run; ask the person again.`,
            retryable: false,
          }),
          sent: false,
        });
      }
      memory.recordSent(toolName, identity, envelope, facts.effect);
      return record(toolName, toolCallId, input, { envelope, sent: true, correlationId });
    },
    async propose(calledName, input, proposeOptions = {}) {
      const toolName = realNameOf(calledName) ?? calledName;
      if (plan === undefined) await session.prepareStep();
      const toolCallId = proposeOptions.toolCallId ?? `${turnId}:${calls.length}`;
      if (!offer!.names.includes(toolName) || orchestrator.needsApproval?.(toolName) !== true) {
        // Not a call the gate holds for a person: nothing to propose; `call` will decide it.
        return { envelope: success({ approval: 'not_required' }), output: undefined, sent: false };
      }
      const correlationId = `${turnId}:${toolCallId}`;
      const envelope = await orchestrator.execute(toolName, input ?? {}, {
        subject,
        correlationId,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (envelope.ok) {
        // A person had approved this exact call already (the CLI, the console): it ran now, once.
        const { facts, identity } = readCall(toolName, input);
        memory.recordSent(toolName, identity, envelope, facts.effect);
      }
      return record(toolName, toolCallId, input, { envelope, sent: true, correlationId });
    },
    async decide(proposalId, decision) {
      // Recorded under the call that made the proposal, so the trace reads as that call's outcome.
      const proposing = calls.find((call) => !call.envelope.ok && call.envelope.proposal_id === proposalId);
      const toolName = proposing?.toolName ?? 'proposal';
      const toolCallId = proposing?.toolCallId ?? `${turnId}:proposal:${proposalId}`;
      const correlationId = `${turnId}:${toolCallId}:decided`;
      if (decision.approved) {
        if (!orchestrator.approveAndExecute) {
          throw new TypeError('createTurnSession: the orchestrator has no approveAndExecute');
        }
        let envelope: Envelope;
        try {
          envelope = await orchestrator.approveAndExecute(
            proposalId,
            { ...(decision.decidedBy ? { decidedBy: decision.decidedBy } : {}) },
            { correlationId },
          );
        } catch (error) {
          envelope = failure('conflict', {
            userMessage: `The proposal could not be approved: ${(error as Error).message}`,
          });
        }
        return record(toolName, toolCallId, proposing?.arguments ?? { proposalId }, {
          envelope,
          sent: true,
          correlationId,
        });
      }
      if (!orchestrator.reject) throw new TypeError('createTurnSession: the orchestrator has no reject');
      await orchestrator.reject(proposalId, {
        reason: decision.reason ?? 'Rejected by the user.',
        ...(decision.decidedBy ? { decidedBy: decision.decidedBy } : {}),
      });
      return record(toolName, toolCallId, proposing?.arguments ?? { proposalId }, {
        envelope: failure('approval_denied', {
          userMessage: decision.reason ?? 'The user rejected this action; it was not run.',
        }),
        sent: true,
      });
    },
    needsApproval(calledName) {
      return orchestrator.needsApproval?.(realNameOf(calledName) ?? calledName) ?? false;
    },
    async allTools() {
      // What the deployment could offer changes only when the registry does: built once per tool list.
      const registered = orchestrator.listTools?.() ?? [];
      let byConnectors = everyToolCache.get(orchestrator);
      if (!byConnectors) {
        byConnectors = new WeakMap();
        everyToolCache.set(orchestrator, byConnectors);
      }
      let every = byConnectors.get(connectors);
      if (!every || !sameTools(every.registered, registered)) {
        every = everyToolOf(connectors, registered, (name) => orchestrator.needsApproval?.(name) ?? false);
        byConnectors.set(connectors, every);
      }
      shownNames = every.toReal;
      if (!every.tools.every(sameApproval)) {
        // The gate decides approvals differently now (an agent's trust changed): asked again.
        every.tools = every.tools.map((tool) => ({
          ...tool,
          needsApproval: orchestrator.needsApproval?.(realNameOf(tool.name) ?? tool.name) ?? false,
        }));
      }
      return [...every.tools];
    },
  };
  return session;
}
