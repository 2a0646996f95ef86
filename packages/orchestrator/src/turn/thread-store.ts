import type { ModelMessage } from 'ai';

/** A conversation as stored: its id and its messages in stored (stamped) form, oldest first. */
export interface Thread {
  id: string;
  messages: ModelMessage[];
}

/**
 * Where conversations persist between turns. `@patchbay/store` implements it on SQLite/Postgres;
 * {@link createInMemoryThreadStore} keeps threads in process memory.
 */
export interface ThreadStore {
  /** The thread, or undefined when it has no messages yet. */
  load(threadId: string): Promise<Thread | undefined>;
  /** Appends messages (already stamped) at the end of the thread, creating it when needed. */
  append(threadId: string, messages: readonly ModelMessage[]): Promise<void>;
}

/** A {@link ThreadStore} in process memory, for tests, examples and single-process tools. */
export function createInMemoryThreadStore(initial: readonly Thread[] = []): ThreadStore {
  const threads = new Map<string, ModelMessage[]>(
    initial.map((thread) => [thread.id, structuredClone(thread.messages)]),
  );
  return {
    async load(threadId) {
      const messages = threads.get(threadId);
      // A copy, so a caller changing what it loaded cannot rewrite stored history.
      return messages ? { id: threadId, messages: structuredClone(messages) } : undefined;
    },
    async append(threadId, messages) {
      const stored = threads.get(threadId) ?? [];
      stored.push(...structuredClone([...messages]));
      threads.set(threadId, stored);
    },
  };
}
