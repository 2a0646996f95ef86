import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Checkpointer } from '@patchbay/connector/ports';
import { type Envelope, PatchbayError } from '@patchbay/envelope';
import type { RulePromptName } from '../server/rule-prompts.js';
import { addEntryPrompt, putContextPrompt } from './agent-prompts.js';
import {
  type ChatMessage,
  emptyState,
  type MemoryAgentState,
  sameMessage,
  type ToolStep,
  trimHistory,
} from './agent-state.js';
import {
  type MemoryControl,
  type MemoryStep,
  memoryControls,
  memorySequences,
  takesMessage,
} from './control.js';
import { runModelStep } from './model-step.js';
import { executeOwnCall, type MemoryGate } from './own-writes.js';
import { loadRulePrompts, type RulePromptLoader } from './rule-prompt-loader.js';

/** Sends one memory tool call through the orchestrator's gate and answers its envelope. */
export type MemoryToolCaller = (
  tool: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<Envelope>;

/** Settings of {@link createMemoryAgent}. */
export interface MemoryAgentOptions {
  /** Any AI SDK language model (`LanguageModelV4`). */
  model: LanguageModelV4;
  /** The gate every tool call goes through, and whose memory it is (`approveAndExecute` runs its own writes under a `writes` policy). */
  orchestrator: MemoryGate;
  subject: string;
  /** The vault and memory this agent keeps (see `ensureMemory`). */
  vaultId: string;
  memoryId: string;
  /** Where each thread's state is kept between invocations (`openStore()` is one). */
  checkpointer: Checkpointer;
  /** Where the rule prompts are read (`promptLoaderFromClient(client)` reads them over MCP). */
  prompts: RulePromptLoader;
  /**
   * What a flush writes the context from: `bounded` (default) the previous context plus the entries
   * since the last flush, so a flush costs the same late in a session as early; `full` the whole
   * history, as the seed does.
   */
  contextInput?: 'bounded' | 'full';
  /** Conversation messages kept for the add_entry prompt in bounded mode (default 12). */
  historyWindow?: number;
  /** Entries loaded at the start of a session (default 10). */
  recentEntries?: number;
  /** Model calls one invocation may make in all (default 6). */
  maxModelCalls?: number;
  /** Time limit of one model call (default 60 s). */
  modelTimeoutMs?: number;
  /** Prefix the memory server's tools carry in the orchestrator, if it was registered with one. */
  toolPrefix?: string;
  /**
   * When the approval policy holds one of the agent's own writes for a person (`approvals.default:
   * 'writes'`), approve that proposal as `patchbay-memory-agent` and run it (default true). False
   * leaves it pending and the invocation fails with `approval_required`.
   */
  approveOwnWrites?: boolean;
}

/** What one invocation did, for callers, tests and the benchmark. */
export interface MemoryInvocation {
  control: MemoryControl;
  /** Every tool call, direct and model-written, in order (refused ones included). */
  toolCalls: ToolStep[];
  modelCalls: number;
  inputTokens: number;
}

/** The memory agent of seed 002. */
export interface MemoryAgent {
  /** Runs one control state's sequence on a thread; throws a `PatchbayError` when it cannot complete. */
  invoke(
    control: MemoryControl,
    threadId: string,
    message?: ChatMessage,
    options?: { signal?: AbortSignal },
  ): Promise<MemoryInvocation>;
  /** The thread's checkpointed state (empty for a thread never seen). */
  state(threadId: string): Promise<MemoryAgentState>;
}

const checkpointKey = (threadId: string) => `memory-agent:${threadId}`;

function dataOf(envelope: Envelope): Record<string, unknown> {
  return envelope.ok && typeof envelope.data === 'object' && envelope.data !== null
    ? (envelope.data as Record<string, unknown>)
    : {};
}

function formatEntries(entries: unknown): string {
  if (!Array.isArray(entries) || entries.length === 0) return '(none)';
  // Newest first on the wire; oldest first reads like the conversation it came from.
  return [...entries]
    .reverse()
    .map((entry: Record<string, unknown>) => {
      const role = (entry.tags as Record<string, string> | undefined)?.role ?? 'note';
      return `- ${String(entry.created_at)} [${role}] ${String(entry.summary)}`;
    })
    .join('\n');
}

/**
 * Creates the memory agent: `invoke(control, threadId, message?)` runs the control state's
 * sequence ({@link memorySequences}) with direct calls where no model is needed and exactly one
 * model-written call per model step. Every call goes through the orchestrator's gate; the model
 * may only call the step's tool, with the vault, memory and raw text set by the agent.
 */
export function createMemoryAgent(options: MemoryAgentOptions): MemoryAgent {
  const mode = options.contextInput ?? 'bounded';
  const historyWindow = options.historyWindow ?? 12;
  const prefix = options.toolPrefix ?? '';
  const ids = { vault_id: options.vaultId, memory_id: options.memoryId };
  let rules: Promise<Record<RulePromptName, string>> | undefined;

  const call: MemoryToolCaller = (tool, args, signal) =>
    executeOwnCall(options.orchestrator, tool, args, {
      prefix,
      subject: options.subject,
      signal,
      approveOwnWrites: options.approveOwnWrites ?? true,
    });

  async function load(threadId: string): Promise<MemoryAgentState> {
    return {
      ...emptyState(),
      ...(await options.checkpointer.loadCheckpoint<MemoryAgentState>(checkpointKey(threadId))),
    };
  }

  function failed(step: MemoryStep, envelope: Envelope | undefined): never {
    if (envelope && !envelope.ok) {
      throw new PatchbayError(envelope.error_type, `Memory ${step.tool} failed: ${envelope.user_message}`);
    }
    throw new PatchbayError(
      'memory_step_limit',
      `The model did not produce a usable ${step.tool} call in time.`,
    );
  }

  async function direct(
    step: MemoryStep & { kind: 'direct' },
    state: MemoryAgentState,
    signal?: AbortSignal,
  ) {
    const args =
      step.tool === 'list_entries'
        ? { ...ids, limit: options.recentEntries ?? 10 }
        : step.tool === 'await_consistency'
          ? { memory_id: options.memoryId }
          : ids;
    const envelope = await call(step.tool, args, signal);
    state.toolHistory.push({
      tool: step.tool,
      by: 'direct',
      args,
      ok: envelope.ok,
      ...(envelope.ok ? {} : { error: envelope.user_message }),
    });
    if (!envelope.ok) failed(step, envelope);
    const data = dataOf(envelope);
    if (step.tool === 'get_context') {
      const context = data.context as { content?: string } | null | undefined;
      state.context = context?.content;
      state.history.push({
        role: 'system',
        content: `Previous session context:\n${state.context ?? '(none yet)'}`,
      });
    } else if (step.tool === 'list_entries') {
      state.history.push({ role: 'system', content: `Recent entries:\n${formatEntries(data.entries)}` });
    }
  }

  return {
    state: load,
    async invoke(control, threadId, message, invokeOptions = {}) {
      if (!memoryControls.includes(control)) {
        throw new PatchbayError('invalid_arguments', `Unknown control state "${String(control)}".`);
      }
      if (takesMessage(control) !== (message !== undefined)) {
        throw new PatchbayError(
          'invalid_arguments',
          takesMessage(control) ? `${control} needs a message.` : `${control} takes no message.`,
        );
      }
      const { signal } = invokeOptions;
      const state = await load(threadId);
      // Seed 002: a message is recorded against the history a session start loaded; without one
      // the add_entry prompt has no context ("START_SESSION may have failed"), so refuse it.
      if (takesMessage(control) && state.history.length === 0 && state.inFlight === undefined) {
        throw new PatchbayError(
          'conflict',
          `No session was started on thread "${threadId}": invoke start_session first (the invoker's startSession()).`,
        );
      }
      const resuming =
        state.inFlight?.control === control && sameMessage(state.inFlight.message, message)
          ? state.inFlight.done
          : 0;
      state.control = control;
      state.toolHistory = [];
      if (resuming === 0) {
        state.toProcess = message ? [message] : [];
        // start_session adds to the history, as the seed's add_messages does, and keeps the entries
        // not yet flushed: a session left without end_session still gets them into the next context.
        if (message) state.history.push(message);
      }
      state.inFlight = { control, message, done: resuming };
      const usage = { modelCalls: 0, inputTokens: 0 };
      const budget = { remaining: options.maxModelCalls ?? 6 };
      const save = () =>
        options.checkpointer.saveCheckpoint(checkpointKey(threadId), {
          ...state,
          history: trimHistory(state.history, mode, historyWindow),
        });

      const steps = memorySequences[control];
      for (let index = resuming; index < steps.length; index += 1) {
        const step = steps[index]!;
        if (step.kind === 'direct') {
          await direct(step, state, signal);
        } else {
          rules ??= loadRulePrompts(options.prompts).catch((error: unknown) => {
            rules = undefined;
            throw error;
          });
          const inputs = { vaultId: options.vaultId, memoryId: options.memoryId, rules: await rules };
          const current = state.toProcess[0];
          const conversation = trimHistory(state.history, mode, historyWindow);
          const envelope = await runModelStep({
            model: options.model,
            tool: step.tool,
            system:
              step.tool === 'add_entry'
                ? addEntryPrompt(inputs, conversation.slice(0, -1), current!)
                : putContextPrompt(
                    inputs,
                    mode === 'full'
                      ? { mode, history: state.history }
                      : { mode, previousContext: state.context, sinceFlush: state.sinceFlush },
                  ),
            toArgs: (input) => {
              if (step.tool === 'put_context') {
                return typeof input.content === 'string' && input.content.trim() !== ''
                  ? { ok: true, args: { ...ids, content: input.content } }
                  : { ok: false, error: 'content must be a non-empty string' };
              }
              if (typeof input.summary !== 'string' || input.summary.trim() === '') {
                return { ok: false, error: 'summary must be a non-empty string' };
              }
              const tags: Record<string, string> = {};
              if (typeof input.tags === 'object' && input.tags !== null && !Array.isArray(input.tags)) {
                for (const [key, value] of Object.entries(input.tags)) tags[key] = String(value);
              }
              // The author's role is a fact the agent knows; the model cannot relabel it.
              tags.role = current!.role;
              return {
                ok: true,
                args: { ...ids, raw_entry: current!.content, summary: input.summary, tags },
              };
            },
            call: (args) => call(step.tool, args, signal),
            budget,
            signal,
            modelTimeoutMs: options.modelTimeoutMs ?? 60_000,
            toolHistory: state.toolHistory,
            usage,
          });
          if (!envelope?.ok) failed(step, envelope);
          const sent = state.toolHistory.findLast((entry) => entry.tool === step.tool && entry.ok)!;
          if (step.tool === 'add_entry') {
            state.sinceFlush.push({
              role: current!.role,
              summary: String(sent.args?.summary),
              rawEntry: current!.content,
            });
          } else {
            state.context = String(sent.args?.content);
            state.sinceFlush = [];
          }
        }
        state.inFlight = { control, message, done: index + 1 };
        await save();
      }
      state.inFlight = undefined;
      await save();
      return { control, toolCalls: state.toolHistory, ...usage };
    },
  };
}
