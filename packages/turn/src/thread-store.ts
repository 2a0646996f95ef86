import type { StoredMessage, Thread, ThreadStore } from '@patchbay/connector/ports';

/** A {@link ThreadStore} in process memory, for tests, examples and single-process tools. */
export function createInMemoryThreadStore<Message extends StoredMessage = StoredMessage>(
  initial: readonly Thread<Message>[] = [],
): ThreadStore<Message> {
  const threads = new Map<string, Message[]>(
    initial.map((thread) => [thread.id, structuredClone(thread.messages)]),
  );
  return {
    async load(threadId) {
      const messages = threads.get(threadId);
      // A copy, so a caller changing what it loaded cannot rewrite stored history.
      return messages ? { id: threadId, messages: structuredClone(messages) } : undefined;
    },
    async append(threadId, messages) {
      // An empty append creates no thread: `load` answers undefined until a message exists.
      if (messages.length === 0) return;
      const stored = threads.get(threadId) ?? [];
      stored.push(...structuredClone([...messages]));
      threads.set(threadId, stored);
    },
  };
}
