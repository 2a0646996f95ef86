import { randomUUID } from 'node:crypto';
import type { StatusSnapshot } from '@patchbay/connector';
import { type Envelope, failure, PatchbayError, renderEnvelopeForModel, success } from '@patchbay/envelope';
import { captureStatus, stampMessage, toIsoSeconds } from '@patchbay/protocol';
import type { ModelMessage } from 'ai';
import { type StatusView, statusViewOf } from './status-view.js';
import { concludeTurn } from './turn-end.js';
import type { TurnEventSink } from './turn-events.js';
import { runSteps } from './turn-loop.js';
import { createTurnMemory } from './turn-memory.js';
import { readTurnMemory, recordTurnMemory, withholdTools } from './turn-memory-source.js';
import { createTurnInstruments } from './turn-metrics.js';
import { buildTurnPrompt, catalogInSystemPromptOf } from './turn-prompt.js';
import { resolveTurnSettings } from './turn-settings.js';
import { type AgentView, viewAgents } from './turn-tools.js';
import { createTurnRecorder } from './turn-trace.js';
import type { RunTurnOptions, TurnResult } from './turn-types.js';

export type {
  RetryOptions,
  RunTurnOptions,
  SkipReason,
  TurnCall,
  TurnCounters,
  TurnOutcome,
  TurnResult,
  TurnRetry,
  TurnStep,
  TurnTrace,
} from './turn-types.js';

/** The status a turn shows: connectors from the status source, MCP servers and functions from the orchestrator. */
interface TurnStatus {
  snapshot: StatusSnapshot;
  agents: AgentView;
  /** The block, its JSON and the tools this status offers (computed once per distinct status). */
  view: StatusView;
  /** True when the status source failed: nothing is known, so nothing that depends on it is offered. */
  unreadable?: boolean;
}

/**
 * What the model reads after an empty status block when the status source failed (seed 000:
 * "graceful degradation if context building fails"). Without it the empty block would read as "no
 * connector exists for this user" and the model would deny services the user has. No error detail:
 * a store's message may carry a connection string.
 */
export const statusUnreadableNote =
  '<connector_status_error>Connector status could not be read this turn, so the block above is empty and no ' +
  'service tools are offered. This does not mean the user has no connected services. Tell the user you cannot ' +
  'reach their services right now and that they can try again shortly; do not guess which services are ' +
  'connected and do not ask them to set anything up.</connector_status_error>';

async function loadHistory(options: RunTurnOptions, threadId: string): Promise<ModelMessage[]> {
  if (typeof options.thread !== 'string') return [...options.thread.messages];
  // A thread store gives back the messages appended to it, and runTurn appends model messages.
  return ((await options.threadStore?.load(threadId))?.messages ?? []) as ModelMessage[];
}

/**
 * Runs one agent turn with Patchbay owning the loop: captures status, builds the static system
 * prompt and the messages, offers the exposed tools, and calls the model one step at a time through
 * `doGenerate`. Every tool call is decided by the call decision table and, when sent, goes through
 * `orchestrator.execute` (the meta-tool `refresh_connector_status` captures status again).
 * `needs_input` / `invalid_arguments` results start the bounded retry loop: guidance from the
 * envelopes, a raised temperature, no identical call sent twice, no successful side effect repeated,
 * and the envelopes' questions put to the user when it stops. The signal and the model deadline stop
 * the turn between and during steps. The turn's messages are stamped and appended to the thread.
 * Throws a `PatchbayError` (`invalid_turn_options`) for limits out of range, before anything runs.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  return executeTurn(options, undefined);
}

/** What a turn starts from besides the user's message: decisions on earlier approvals. */
export interface TurnResumeOptions {
  /**
   * Decisions a person made on proposals of earlier turns (the AI SDK UI's approval responses, see
   * `approvalsFromUIMessages`): each is carried out through the gate before the model is called
   * (approved → run once; rejected → not run), and what happened is this turn's user message when
   * `message` is absent, or added to it. A proposal of another subject is refused, never decided.
   */
  approvals?: readonly ApprovalDecision[];
}

/** A person's decision on a proposal the gate made. */
export interface ApprovalDecision {
  proposalId: string;
  approved: boolean;
  /** Why it was rejected; shown to the model. */
  reason?: string;
  /** The tool call the approval was asked for, so a UI can put the result in its place. */
  toolCallId?: string;
  /** Who decided (recorded on the proposal). */
  decidedBy?: string;
}

/**
 * The turn, streamed or not: `emit` set streams the model calls (`doStream`) and reports every event
 * as it happens; unset, the model is called with `doGenerate` and nothing is reported.
 */
export async function executeTurn(
  options: Omit<RunTurnOptions, 'message'> & { message?: string } & TurnResumeOptions,
  emit: TurnEventSink | undefined,
): Promise<TurnResult> {
  const settings = resolveTurnSettings(options as RunTurnOptions);
  const clock = options.now ?? (() => new Date());
  const instruments = createTurnInstruments(options.meter);
  const turnId = randomUUID();
  const { connectors, subject } = options;
  const threadId = typeof options.thread === 'string' ? options.thread : options.thread.id;
  const history = await loadHistory(options as RunTurnOptions, threadId);
  emit?.({ type: 'turn-start', turnId, threadId });
  const decided = await decideApprovals(options, emit);
  const message = userMessageOf(options.message, decided);
  if (message === undefined) {
    throw new PatchbayError('invalid_turn_options', 'runTurn: give a message, or approvals to resume with.');
  }
  const turnOptions: RunTurnOptions = { ...options, message };

  const viewSettings = {
    connectors,
    statusBlock: options.statusBlock,
    catalogInSystemPrompt: catalogInSystemPromptOf(turnOptions),
  };
  const capture = async (): Promise<TurnStatus> => {
    let snapshot: StatusSnapshot;
    try {
      snapshot = await captureStatus({
        connectors,
        source: options.statusSource,
        subject,
        now: clock,
        ...(options.verify ? { verify: options.verify } : {}),
      });
    } catch {
      // The turn goes on with what is known: no connector, and no MCP server or function either,
      // because the admin policy that may disable them came from the same failed read, and the gate
      // would refuse their calls on that read anyway.
      const unknown: StatusSnapshot = {
        subject,
        capturedAt: toIsoSeconds(clock()),
        connectors: {},
        unknownConnectorIds: [],
      };
      const none: AgentView = { tools: [], servers: [] };
      return {
        snapshot: unknown,
        agents: none,
        view: statusViewOf(unknown, none, viewSettings),
        unreadable: true,
      };
    }
    const agents = withholdTools(
      await viewAgents(options.orchestrator, snapshot),
      options.memory?.withheldTools,
    );
    const view = statusViewOf(snapshot, agents, viewSettings);
    emit?.({
      type: 'status',
      capturedAt: snapshot.capturedAt,
      connectorStatus: view.wire,
      tools: view.offer.names,
    });
    return { snapshot, agents, view };
  };
  let status = await capture();
  const remembered = options.memory
    ? await readTurnMemory(options.memory, subject, threadId, options.signal)
    : undefined;
  const extraContext = [status.unreadable ? statusUnreadableNote : undefined, remembered?.block].filter(
    (block): block is string => block !== undefined,
  );
  const prompt = buildTurnPrompt(
    turnOptions,
    history,
    status,
    clock,
    extraContext.length > 0 ? extraContext.join('\n') : undefined,
  );
  const recorder = createTurnRecorder(
    {
      turnId,
      subject,
      threadId,
      capturedAt: status.snapshot.capturedAt,
      connectorStatus: status.view.wire,
      exposedTools: status.view.offer.names,
    },
    instruments,
  );
  const memory = createTurnMemory();
  const stored: ModelMessage[] = [prompt.userMessage];

  const ending = await runSteps({
    turnId,
    subject,
    orchestrator: options.orchestrator,
    connectors,
    signal: options.signal,
    clock,
    memory,
    recorder,
    maxResultChars: settings.maxResultChars,
    rules: {
      maxCallsPerStep: settings.maxCallsPerStep,
      requireUserGroundedInput: settings.requireUserGroundedInput,
      userText: prompt.userText,
    },
    async refreshStatus() {
      const refreshed = await capture();
      if (refreshed.unreadable) {
        // What was read earlier this turn stays: a failed refresh is no reason to know less.
        return failure('tool_unavailable', {
          userMessage: 'Connector status could not be read just now. Try again shortly.',
          retryable: true,
        });
      }
      status = refreshed;
      return success({ captured_at: status.snapshot.capturedAt, connector_status: status.view.wire });
    },
    model: options.model,
    settings,
    base: prompt.base,
    // Read again before every model call: a server that went down mid-turn loses its tools at once.
    offer: async () => {
      if (status.unreadable) return status.view.offer;
      const agents = withholdTools(
        await viewAgents(options.orchestrator, status.snapshot),
        options.memory?.withheldTools,
      );
      return statusViewOf(status.snapshot, agents, viewSettings).offer;
    },
    stored,
    tail: [],
    emit,
  });

  const conclusion = concludeTurn(ending, memory.openFailures(), settings);
  if (emit) {
    if (conclusion.questions.length > 0) emit({ type: 'question', questions: conclusion.questions });
    const streamed = ending.kind === 'replied' ? ending.text : '';
    emit({
      type: 'reply',
      text: conclusion.reply,
      unstreamed: conclusion.reply.startsWith(streamed)
        ? conclusion.reply.slice(streamed.length)
        : conclusion.reply,
    });
  }
  recorder.sequencesClosed(
    ending.kind === 'stopped' ? 'stopped' : 'asked_user',
    memory.closeSequences(memory.openFailures().map((item) => item.toolName)),
  );
  const trace = recorder.finish();
  trace.outcome = conclusion.outcome;
  trace.questions = conclusion.questions;

  stored.push(stampMessage({ role: 'assistant', content: conclusion.reply }, clock()));
  // One append at the end: a stopped turn stores its complete steps and the reply, never half a step.
  await options.threadStore?.append(threadId, stored);
  if (options.memory && remembered) {
    // After the thread is stored: memory is best effort and its failures only reach the trace.
    await recordTurnMemory(
      options.memory,
      subject,
      threadId,
      [
        { role: 'user', message: { role: 'user', content: message } },
        // Unstamped: memory records what was said, not the thread's time stamps.
        { role: 'assistant', message: { role: 'assistant', content: conclusion.reply } },
      ],
      remembered.trace,
    );
    trace.memory = remembered.trace;
  }
  emit?.({ type: 'turn-finish', outcome: conclusion.outcome, reply: conclusion.reply });
  return { reply: conclusion.reply, thread: { id: threadId, messages: [...history, ...stored] }, trace };
}

/** What a decision did: the proposal, its tool, and the envelope of the run or of the refusal. */
interface DecidedApproval {
  decision: ApprovalDecision;
  toolName: string;
  envelope: Envelope;
}

/**
 * Carries out the person's decisions through the gate, one by one: approved → `approveAndExecute`
 * (run once, MAC-checked), rejected → `reject`. Only proposals of the turn's subject are decided.
 */
async function decideApprovals(
  options: Pick<RunTurnOptions, 'orchestrator' | 'subject' | 'signal'> & TurnResumeOptions,
  emit: TurnEventSink | undefined,
): Promise<DecidedApproval[]> {
  const decisions = options.approvals ?? [];
  if (decisions.length === 0) return [];
  const { orchestrator, subject } = options;
  if (!orchestrator.listProposals || !orchestrator.approveAndExecute || !orchestrator.reject) {
    throw new PatchbayError(
      'invalid_turn_options',
      'runTurn: approvals need an orchestrator with listProposals, approveAndExecute and reject.',
    );
  }
  const own = new Map(
    (await orchestrator.listProposals({ subject, state: 'pending' })).map((proposal) => [
      proposal.id,
      proposal,
    ]),
  );
  const decided: DecidedApproval[] = [];
  for (const decision of decisions) {
    const proposal = own.get(decision.proposalId);
    let envelope: Envelope;
    if (proposal === undefined) {
      envelope = failure('not_found', {
        userMessage: 'There is no pending proposal with this id for this user; nothing was run.',
      });
    } else if (decision.approved) {
      try {
        envelope = await orchestrator.approveAndExecute(
          decision.proposalId,
          { ...(decision.decidedBy ? { decidedBy: decision.decidedBy } : {}) },
          options.signal ? { signal: options.signal } : {},
        );
      } catch (error) {
        // Already decided or run (a second tab, a replayed request): the call does not run again.
        envelope = failure('conflict', {
          userMessage: `This proposal can no longer be approved: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    } else {
      const reason = decision.reason ?? 'The user rejected this action.';
      try {
        await orchestrator.reject(decision.proposalId, {
          reason,
          ...(decision.decidedBy ? { decidedBy: decision.decidedBy } : {}),
        });
        envelope = failure('approval_denied', { userMessage: `${reason} It was not run.` });
      } catch (error) {
        envelope = failure('conflict', {
          userMessage: `This proposal can no longer be rejected: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
    const toolName = proposal?.tool ?? 'unknown';
    decided.push({ decision, toolName, envelope });
    emit?.({
      type: 'approval-decided',
      proposalId: decision.proposalId,
      ...(decision.toolCallId ? { toolCallId: decision.toolCallId } : {}),
      toolName,
      approved: decision.approved,
      envelope,
      output: JSON.parse(renderEnvelopeForModel(envelope)),
    });
  }
  return decided;
}

/**
 * The user message of a turn: what the user wrote, and, when approvals were decided, a block saying
 * what each decision did (the model reads the results there and tells the user).
 */
function userMessageOf(message: string | undefined, decided: readonly DecidedApproval[]): string | undefined {
  if (decided.length === 0) return message;
  const block = `<approval_decisions>${JSON.stringify(
    decided.map(({ decision, toolName, envelope }) => ({
      proposal_id: decision.proposalId,
      tool: toolName,
      decision: decision.approved ? 'approved' : 'rejected',
      result: JSON.parse(renderEnvelopeForModel(envelope)),
    })),
  )}</approval_decisions>`;
  return message === undefined ? block : `${message}\n${block}`;
}
