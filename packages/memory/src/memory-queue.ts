import { randomUUID } from 'node:crypto';
import type { Checkpointer } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';

/** One message waiting to be handed to the memory agent. */
export interface QueuedMessage {
  id: string;
  threadId: string;
  role: 'user' | 'assistant';
  content: string;
  /** ISO time it was queued. */
  queuedAt: string;
  /** Failed attempts so far. */
  attempts: number;
  /** The last failure, a sentence; absent until one failed. */
  lastError?: string;
  /** ISO time of the next attempt after a failure. */
  retryAt?: string;
}

/** Settings of {@link createMemoryQueue}. */
export interface MemoryQueueOptions {
  /** Hands one message to memory; a throw means "try again later" (the invoker's `processMessage`). */
  process(threadId: string, message: { role: 'user' | 'assistant'; content: string }): Promise<void>;
  /**
   * Where waiting messages are kept, so a crash or restart loses none (`openStore()` is one). Without
   * it the queue lives in this process only.
   */
  checkpointer?: Checkpointer;
  /** Most messages waiting at once, all threads together; `enqueue` refuses beyond it. Default 1,000. */
  capacity?: number;
  /** Backoff after a failure: `baseDelayMs` (default 1 s) doubling up to `maxDelayMs` (default 60 s). */
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
  /** Told of every failure (the message stays queued and is retried). */
  onError?(message: QueuedMessage, error: unknown): void;
}

/** What is waiting, for a status page or a health check. */
export interface MemoryQueueStatus {
  /** Messages waiting, all threads. */
  pending: number;
  /** The first waiting message of each thread that has failed at least once, with its error and next try. */
  failing: QueuedMessage[];
}

/**
 * A bounded queue that records a conversation's messages in memory in the background, so a turn does
 * not wait for the memory agent's model calls. Messages of one thread are handed over one at a time
 * in order (the invoker's flush cadence counts them); threads run side by side. A failed message is
 * retried with backoff until it succeeds, and the thread waits behind it: nothing is dropped or
 * reordered, and `status()` shows what is failing and why.
 */
export interface MemoryQueue {
  /** Queues a message (saved before it resolves when a checkpointer is given); refuses when full or closed. */
  enqueue(threadId: string, message: { role: 'user' | 'assistant'; content: string }): Promise<void>;
  /** Loads the messages a previous process left waiting and starts on them; resolves to how many wait. */
  resume(): Promise<number>;
  /** What is waiting and what is failing. */
  status(): Promise<MemoryQueueStatus>;
  /** Resolves when nothing is waiting (or `close` was called). */
  idle(): Promise<void>;
  /** Stops handing messages over; what is waiting stays saved for `resume`. */
  close(): Promise<void>;
}

const threadKey = (threadId: string) => `memory-queue:${threadId}`;
const indexKey = 'memory-queue:threads';
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Creates a {@link MemoryQueue}. */
export function createMemoryQueue(options: MemoryQueueOptions): MemoryQueue {
  const capacity = options.capacity ?? 1_000;
  const baseDelayMs = options.retry?.baseDelayMs ?? 1_000;
  const maxDelayMs = options.retry?.maxDelayMs ?? 60_000;
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new PatchbayError('invalid_arguments', 'capacity must be a whole number of at least 1.');
  }
  const threads = new Map<string, QueuedMessage[]>();
  const running = new Set<string>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let idleWaiters: (() => void)[] = [];
  let closed = false;
  // Saves run one after another, so the stored lists never go back in time.
  let saving: Promise<unknown> = Promise.resolve();

  const pending = () => [...threads.values()].reduce((sum, list) => sum + list.length, 0);
  const save = (threadId: string) => {
    const { checkpointer } = options;
    if (!checkpointer) return Promise.resolve();
    const list = threads.get(threadId) ?? [];
    const index = [...threads.keys()];
    const next = saving.then(async () => {
      if (list.length === 0) await checkpointer.deleteCheckpoint(threadKey(threadId));
      else await checkpointer.saveCheckpoint(threadKey(threadId), list);
      await checkpointer.saveCheckpoint(indexKey, index);
    });
    saving = next.catch(() => undefined);
    return next;
  };
  const settleIfIdle = () => {
    if (pending() > 0 && !closed) return;
    for (const wake of idleWaiters) wake();
    idleWaiters = [];
  };

  const drain = async (threadId: string): Promise<void> => {
    if (running.has(threadId) || closed) return;
    running.add(threadId);
    try {
      for (let head = threads.get(threadId)?.[0]; head && !closed; head = threads.get(threadId)?.[0]) {
        try {
          await options.process(threadId, { role: head.role, content: head.content });
        } catch (error) {
          head.attempts += 1;
          head.lastError = describe(error);
          const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (head.attempts - 1));
          head.retryAt = new Date(Date.now() + delay).toISOString();
          options.onError?.(head, error);
          await save(threadId).catch(() => undefined);
          const timer = setTimeout(() => {
            timers.delete(timer);
            void drain(threadId);
          }, delay);
          timers.add(timer);
          return;
        }
        const list = threads.get(threadId) ?? [];
        list.shift();
        if (list.length === 0) threads.delete(threadId);
        await save(threadId).catch(() => undefined);
      }
    } finally {
      running.delete(threadId);
      settleIfIdle();
    }
  };

  return {
    async enqueue(threadId, message) {
      if (closed) throw new PatchbayError('invalid_usage', 'The memory queue is closed.');
      if (pending() >= capacity) {
        throw new PatchbayError(
          'rate_limited',
          `The memory queue is full (${capacity} messages waiting); this message was not recorded.`,
        );
      }
      const list = threads.get(threadId) ?? [];
      threads.set(threadId, list);
      const queued: QueuedMessage = {
        id: randomUUID(),
        threadId,
        ...message,
        queuedAt: new Date().toISOString(),
        attempts: 0,
      };
      list.push(queued);
      try {
        await save(threadId);
      } catch (error) {
        // Not saved, so not queued: the caller is told, and a retry of theirs records it once.
        list.splice(list.indexOf(queued), 1);
        if (list.length === 0 && !running.has(threadId)) threads.delete(threadId);
        throw error;
      }
      void drain(threadId);
    },
    async resume() {
      const { checkpointer } = options;
      if (!checkpointer || closed) return 0;
      const index = (await checkpointer.loadCheckpoint<string[]>(indexKey)) ?? [];
      let loaded = 0;
      for (const threadId of index) {
        if (threads.has(threadId)) continue;
        const list = (await checkpointer.loadCheckpoint<QueuedMessage[]>(threadKey(threadId))) ?? [];
        if (list.length === 0) continue;
        threads.set(threadId, list);
        loaded += list.length;
        void drain(threadId);
      }
      return loaded;
    },
    async status() {
      const failing = [...threads.values()]
        .map((list) => list[0])
        .filter((head): head is QueuedMessage => head !== undefined && head.attempts > 0)
        .map((head) => ({ ...head }));
      return { pending: pending(), failing };
    },
    idle() {
      if (pending() === 0 || closed) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await saving;
      settleIfIdle();
    },
  };
}
