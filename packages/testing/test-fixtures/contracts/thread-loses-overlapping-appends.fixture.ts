import type { StoredMessage, ThreadStore } from '@patchbay/connector/ports';
import { describeThreadStoreContract } from '../../src/index.js';
import { referenceThreadStore, roundTrip, threadHarness } from './reference-ports.js';

// Broken on purpose: `append` reads the thread, waits for a round trip, and writes the whole
// thread back, so of two overlapping appends the later write drops the other's messages.
describeThreadStoreContract('append rewrites the whole thread', () =>
  threadHarness((threads): ThreadStore => {
    const store = referenceThreadStore(threads);
    return {
      load: (threadId) => store.load(threadId),
      async append(threadId, messages) {
        if (messages.length === 0) return;
        const current: StoredMessage[] = (await store.load(threadId))?.messages ?? [];
        await roundTrip();
        threads.set(threadId, [...current, ...structuredClone([...messages])]);
      },
    };
  }),
);
