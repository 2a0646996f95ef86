import type { Checkpointer } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import type { MemoryAgent, MemoryInvocation } from './agent/memory-agent.js';

/** Settings of {@link createMemoryInvoker}. */
export interface MemoryInvokerOptions {
  agent: MemoryAgent;
  /** The conversation this invoker feeds to the agent. */
  threadId: string;
  /** Where the message count is kept, so a restart keeps the cadence (`openStore()` is one). */
  checkpointer: Checkpointer;
  /** Flush (update the context) on every n-th message; default 6, as in the seed. */
  flushEvery?: number;
  /**
   * Start the session by itself when a message arrives on a thread that never had one (default
   * true), so the agent has the context and recent entries before it records; `false` leaves
   * `startSession` to the caller, as the seed does, and a message before it fails with `conflict`.
   */
  autoStart?: boolean;
}

/** Feeds one conversation to the memory agent, choosing each control state itself. */
export interface MemoryInvoker {
  /** Starts a session: the count restarts at 0 and the agent loads context and recent entries. */
  startSession(options?: { signal?: AbortSignal }): Promise<MemoryInvocation>;
  /**
   * Records one message; every `flushEvery`-th message of the session also flushes. On a thread that
   * never had a session, starts one first (unless `autoStart: false`).
   */
  processMessage(
    role: 'user' | 'assistant',
    content: string,
    options?: { signal?: AbortSignal },
  ): Promise<MemoryInvocation>;
  /** Ends the session with a final flush. */
  endSession(options?: { signal?: AbortSignal }): Promise<MemoryInvocation>;
  /** Messages processed in the current session, as persisted. */
  messageCount(): Promise<number>;
}

const countKey = (threadId: string) => `memory-invoker:${threadId}`;

/**
 * Creates the invoker of seed 002: the caller passes raw messages and the invoker builds them and
 * picks `process_message` or `process_message_and_flush`. Unlike the seed's in-memory counter, the
 * count lives in the checkpointer, and it is advanced only after the agent succeeded, so a retried
 * message is not counted twice and a restart mid-session flushes on the same messages.
 */
export function createMemoryInvoker(options: MemoryInvokerOptions): MemoryInvoker {
  const flushEvery = options.flushEvery ?? 6;
  if (!Number.isInteger(flushEvery) || flushEvery < 1) {
    throw new PatchbayError('invalid_arguments', 'flushEvery must be a whole number of at least 1.');
  }
  const key = countKey(options.threadId);
  const count = async () => (await options.checkpointer.loadCheckpoint<{ count: number }>(key))?.count ?? 0;
  const setCount = (value: number) => options.checkpointer.saveCheckpoint(key, { count: value });

  return {
    messageCount: count,
    async startSession(invokeOptions) {
      await setCount(0);
      return options.agent.invoke('start_session', options.threadId, undefined, invokeOptions);
    },
    async processMessage(role, content, invokeOptions) {
      const stored = await options.checkpointer.loadCheckpoint<{ count: number }>(key);
      if (stored === undefined && options.autoStart !== false) {
        await setCount(0);
        await options.agent.invoke('start_session', options.threadId, undefined, invokeOptions);
      }
      const next = (stored?.count ?? 0) + 1;
      const control = next % flushEvery === 0 ? 'process_message_and_flush' : 'process_message';
      const result = await options.agent.invoke(control, options.threadId, { role, content }, invokeOptions);
      await setCount(next);
      return result;
    },
    async endSession(invokeOptions) {
      return options.agent.invoke('end_session', options.threadId, undefined, invokeOptions);
    },
  };
}

/**
 * A queue's `process` that hands each message to its thread's invoker: what `createMemoryQueue` or
 * `createPgBossMemoryQueue` (`@patchbay/memory/pg-boss`) run in the background. Invokers keep their
 * count in the checkpointer, so any process (or app instance) can take a thread's next message.
 */
export function processWithInvokers(
  options: Omit<MemoryInvokerOptions, 'threadId'>,
): (threadId: string, message: { role: 'user' | 'assistant'; content: string }) => Promise<void> {
  const invokers = new Map<string, MemoryInvoker>();
  return async (threadId, message) => {
    let invoker = invokers.get(threadId);
    if (!invoker) {
      invoker = createMemoryInvoker({ ...options, threadId });
      invokers.set(threadId, invoker);
    }
    await invoker.processMessage(message.role, message.content);
  };
}
