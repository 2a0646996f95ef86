import type { StoredMessage, ThreadStore } from '@patchbay/connector/ports';
import { describeThreadStoreContract } from '../../src/index.js';
import { referenceThreadStore, threadHarness } from './reference-ports.js';

/** Where each append began, by thread, one table per store (shared by its handles). */
const startsByStore = new WeakMap<Map<string, StoredMessage[]>, Map<string, number[]>>();

// Broken on purpose: each append is kept as a batch, and `load` puts the newest batch first, as a
// store reading `ORDER BY appended_at DESC` would.
describeThreadStoreContract('newest append first', () =>
  threadHarness((threads): ThreadStore => {
    const store = referenceThreadStore(threads);
    const batchStarts = startsByStore.get(threads) ?? new Map<string, number[]>();
    startsByStore.set(threads, batchStarts);
    return {
      async append(threadId, messages) {
        if (messages.length === 0) return;
        const starts = batchStarts.get(threadId) ?? [];
        starts.push((await store.load(threadId))?.messages.length ?? 0);
        batchStarts.set(threadId, starts);
        await store.append(threadId, messages);
      },
      async load(threadId) {
        const thread = await store.load(threadId);
        if (!thread) return undefined;
        const starts = batchStarts.get(threadId) ?? [0];
        const batches = starts.map((start, index) => thread.messages.slice(start, starts[index + 1]));
        return { id: threadId, messages: batches.reverse().flat() };
      },
    };
  }),
);
