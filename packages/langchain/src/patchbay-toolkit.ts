import { type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface, ToolRunnableConfig } from '@langchain/core/tools';
import { interrupt, isGraphInterrupt } from '@langchain/langgraph';
import type { Envelope } from '@patchbay/envelope';
import {
  createTurnSession,
  type SessionCallResult,
  type SessionTool,
  type SkipReason,
  type StepPlan,
  type TurnSession,
  type TurnSessionOptions,
} from '@patchbay/turn';
import { PatchbayTool } from './patchbay-tool.js';
import { everythingUserWrote, lastHumanIndex, type PlacedMessages, placeContext } from './step-messages.js';

/** Options of {@link createPatchbayToolkit}: the turn session's, without `userText` (read from the messages). */
export interface PatchbayToolkitOptions extends Omit<TurnSessionOptions, 'userText'> {
  /** Who approves in LangGraph's approval step, recorded on the proposal; default the subject. */
  approver?: string;
}

/** What the graph pauses with (`interrupt(value)`) when the gate waits for a person. */
export interface PatchbayApprovalRequest {
  /** The gate's proposal: approving runs exactly this call once. */
  proposal_id: string;
  /** The tool the model called. */
  tool: string;
  /** The arguments the model wrote. */
  args: unknown;
  /** What to show the person, from the gate's envelope. */
  message: string;
  /** The model's tool call this approval answers. */
  tool_call_id?: string;
}

/**
 * What to resume the graph with: `new Command({ resume: { approved: true } })`. A bare `true` or
 * `false` is read the same way; anything else rejects.
 */
export interface PatchbayApprovalDecision {
  approved: boolean;
  /** Shown to the model when rejected. */
  reason?: string;
  /** Recorded on the proposal; the toolkit's `approver` when absent. */
  decidedBy?: string;
}

/** The artifact of every Patchbay tool message: the full envelope and how the call was answered. */
export interface PatchbayToolArtifact {
  envelope: Envelope;
  /** Whether the call reached the gate. */
  sent: boolean;
  skipped?: SkipReason;
  /** Set while a person's decision is awaited. */
  proposalId?: string;
}

/** What one step of the graph gets from {@link PatchbayToolkit.prepareStep}. */
export interface PatchbayStep {
  /** The session's plan: fresh status, context block, runnable tools, or the question for the user. */
  plan: StepPlan;
  /** Send these to the model: system prompt, the stored messages, the context placed at the tail. */
  messages: BaseMessage[];
  /** Bind only these: the tools that can run now, in the turn's stable order. */
  tools: StructuredToolInterface[];
  /** Their names. */
  activeTools: string[];
}

/** Patchbay inside LangChain / LangGraph: tools through the gate, the per-step status, approvals. */
export interface PatchbayToolkit {
  /** Every tool the session could offer; register them once (a `ToolNode`), bind per step. */
  readonly tools: readonly StructuredToolInterface[];
  /** The static system prompt (byte-stable): identity and the protocol blocks. */
  readonly systemPrompt: string;
  /** The current turn's session (its `calls` are the trace). */
  readonly session: TurnSession;
  /** Every plan the current turn prepared, in order. */
  readonly steps: readonly StepPlan[];
  /**
   * Call before every model call with the graph's messages: captures status fresh and returns what
   * to send and what to bind. A human message not seen before starts a new turn (a new session).
   */
  prepareStep(messages?: readonly BaseMessage[]): Promise<PatchbayStep>;
  /** Answers a call of a tool the toolkit has no LangChain tool for (the gate says why it cannot run). */
  answer(toolName: string, input: unknown, toolCallId?: string): Promise<ToolMessage | string>;
}

interface Answer {
  content: string;
  result: SessionCallResult;
  /** The approval this call paused on: replayed on a re-run so LangGraph's resume values keep their order. */
  request?: PatchbayApprovalRequest;
}

function contentOf(result: SessionCallResult): string {
  return typeof result.output === 'string' ? result.output : JSON.stringify(result.output ?? result.envelope);
}

function decisionOf(value: unknown): PatchbayApprovalDecision {
  if (value === true || value === false) return { approved: value };
  if (typeof value !== 'object' || value === null) return { approved: false };
  const { approved, reason, decidedBy } = value as Record<string, unknown>;
  return {
    approved: approved === true,
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof decidedBy === 'string' ? { decidedBy } : {}),
  };
}

/**
 * Creates the toolkit for one user's conversation: LangChain tools for every tool Patchbay could
 * offer, each call run through the turn session and the gate; a per-step hook with fresh status and
 * the runnable tools; approvals as LangGraph `interrupt()`. Use one toolkit per conversation at a
 * time: it keeps the current turn's session.
 */
export async function createPatchbayToolkit(options: PatchbayToolkitOptions): Promise<PatchbayToolkit> {
  const { approver = options.subject, ...sessionOptions } = options;
  let session = createTurnSession(sessionOptions);
  let turnKey: unknown;
  let steps: StepPlan[] = [];
  let answered = new Map<string, Answer>();
  let proposed = new Map<
    string,
    { proposalId: string; request: PatchbayApprovalRequest; result: SessionCallResult }
  >();
  // Calls run one at a time, in the order they arrive: a re-run after a resume meets its
  // interrupts in the same order as the first run, which is how LangGraph matches resume values.
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
  const registry = new Map<string, PatchbayTool>();
  /** The messages of the last step: equal ones are not built again. */
  const placed: PlacedMessages = {};
  const register = (definition: SessionTool) => {
    if (!registry.has(definition.name)) registry.set(definition.name, new PatchbayTool(definition, runTool));
  };

  function toolMessage(
    toolName: string,
    toolCallId: string | undefined,
    answer: Answer,
  ): ToolMessage | string {
    if (toolCallId === undefined) return answer.content;
    const { envelope, sent, skipped, proposalId } = answer.result;
    const artifact: PatchbayToolArtifact = {
      envelope,
      sent,
      ...(skipped ? { skipped } : {}),
      ...(proposalId ? { proposalId } : {}),
    };
    return new ToolMessage({
      content: answer.content,
      tool_call_id: toolCallId,
      name: toolName,
      status: envelope.ok ? 'success' : 'error',
      artifact,
    });
  }

  async function run(toolName: string, input: unknown, toolCallId: string | undefined): Promise<Answer> {
    const done = toolCallId === undefined ? undefined : answered.get(toolCallId);
    if (done) {
      // A re-run of the node after a resume: answered before, never sent again.
      if (done.request) interrupt(done.request);
      return done;
    }
    let waiting = toolCallId === undefined ? undefined : proposed.get(toolCallId);
    if (!waiting) {
      const result = await session.call(toolName, input, toolCallId === undefined ? {} : { toolCallId });
      const answer: Answer = { content: contentOf(result), result };
      if (result.proposalId === undefined) {
        if (toolCallId !== undefined) answered.set(toolCallId, answer);
        return answer;
      }
      const envelope = result.envelope;
      waiting = {
        proposalId: result.proposalId,
        result,
        request: {
          proposal_id: result.proposalId,
          tool: toolName,
          args: input,
          message: envelope.ok ? '' : envelope.user_message,
          ...(toolCallId !== undefined ? { tool_call_id: toolCallId } : {}),
        },
      };
      // Remembered before pausing: the re-run after the resume decides this proposal, never a new one.
      if (toolCallId !== undefined) proposed.set(toolCallId, waiting);
    }
    let decision: PatchbayApprovalDecision;
    try {
      decision = decisionOf(interrupt(waiting.request));
    } catch (error) {
      if (isGraphInterrupt(error)) throw error;
      // No graph with a checkpointer around this call: the model reads the gate's answer (waiting
      // for approval, with the proposal id) and a person decides elsewhere (`patchbay approve`).
      return { content: contentOf(waiting.result), result: waiting.result };
    }
    const result = await session.decide(waiting.proposalId, {
      approved: decision.approved,
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      decidedBy: decision.decidedBy ?? approver,
    });
    const answer: Answer = { content: contentOf(result), result, request: waiting.request };
    if (toolCallId !== undefined) {
      proposed.delete(toolCallId);
      answered.set(toolCallId, answer);
    }
    return answer;
  }

  async function runTool(toolName: string, input: unknown, config: ToolRunnableConfig | undefined) {
    const toolCallId = config?.toolCall?.id;
    const answer = await serialize(() => run(toolName, input, toolCallId));
    return toolMessage(toolName, toolCallId, answer);
  }

  for (const definition of await session.allTools()) register(definition);

  return {
    get tools() {
      return [...registry.values()];
    },
    systemPrompt: session.systemPrompt,
    get session() {
      return session;
    },
    get steps() {
      return steps;
    },
    async prepareStep(messages = []) {
      const index = lastHumanIndex(messages);
      const current = index < 0 ? undefined : messages[index]!;
      const key = current === undefined ? undefined : (current.id ?? current);
      if (key !== undefined && key !== turnKey) {
        turnKey = key;
        session = createTurnSession({ ...sessionOptions, userText: everythingUserWrote(messages) });
        steps = [];
        answered = new Map();
        proposed = new Map();
      }
      const plan = await session.prepareStep();
      steps.push(plan);
      // A tool that became available after the toolkit was made (an MCP server that came up).
      for (const definition of plan.tools) register(definition);
      return {
        plan,
        messages: placeContext(session.systemPrompt, messages, plan.context, placed),
        tools: plan.activeTools.map((name) => registry.get(name)!),
        activeTools: plan.activeTools,
      };
    },
    async answer(toolName, input, toolCallId) {
      const answer = await serialize(() => run(toolName, input, toolCallId));
      return toolMessage(toolName, toolCallId, answer);
    },
  };
}
