import type { MemoryControl } from './control.js';

/** A conversation message as the memory agent keeps it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One tool call of an invocation: direct or model-written, answered or refused before it was sent. */
export interface ToolStep {
  tool: string;
  /** `direct` calls are the agent's own; `model` calls were written by the model. */
  by: 'direct' | 'model';
  /** The arguments sent (ids included), absent for refused calls. */
  args?: Record<string, unknown> | undefined;
  ok: boolean;
  /** Why the call failed or was refused, in one sentence. */
  error?: string | undefined;
  /** True when the model asked for a tool other than the one this step allows: it was never sent. */
  refused?: boolean | undefined;
}

/** An entry recorded since the last flush, what a bounded flush synthesises from. */
export interface RecentEntry {
  role: string;
  summary: string;
  rawEntry: string;
}

/**
 * The agent's state per thread, as checkpointed. `history` accumulates across invocations (the
 * seed's `conversation_history`); `toProcess` and `toolHistory` are replaced by each invocation.
 */
export interface MemoryAgentState {
  history: ChatMessage[];
  toProcess: ChatMessage[];
  toolHistory: ToolStep[];
  control: MemoryControl | undefined;
  /** The context as last loaded or written: the base a bounded flush starts from. */
  context: string | undefined;
  /** Entries added since the last flush. */
  sinceFlush: RecentEntry[];
  /**
   * The invocation under way: which steps of its sequence already succeeded. A repeat of the same
   * invocation after a crash or a failed step resumes after them instead of adding the entry twice.
   */
  inFlight?: { control: MemoryControl; message: ChatMessage | undefined; done: number } | undefined;
}

/** The state of a thread the agent has never seen. */
export function emptyState(): MemoryAgentState {
  return {
    history: [],
    toProcess: [],
    toolHistory: [],
    control: undefined,
    context: undefined,
    sinceFlush: [],
  };
}

/** Whether two optional messages are the same message. */
export function sameMessage(left: ChatMessage | undefined, right: ChatMessage | undefined): boolean {
  return left?.role === right?.role && left?.content === right?.content;
}

/**
 * The history to keep: everything in `full` mode (the seed's behaviour), else the two system messages
 * the latest session start loaded (context and recent entries; older ones are superseded by them)
 * plus the last `window` conversation messages, so neither the checkpoint nor the prompts grow with
 * the length of the session or the number of sessions.
 */
export function trimHistory(history: ChatMessage[], mode: 'bounded' | 'full', window: number): ChatMessage[] {
  if (mode === 'full') return history;
  const loaded = history.filter((message) => message.role === 'system').slice(-2);
  const conversation = history.filter((message) => message.role !== 'system');
  return [...loaded, ...conversation.slice(-window)];
}
