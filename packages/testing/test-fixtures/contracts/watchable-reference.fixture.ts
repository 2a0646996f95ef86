import { describeWatchableStatusSourceContract } from '../../src/index.js';
import { watchableHarness } from './watchable-ports.js';

// Correct: every write is told to every listener of every handle on the data.
describeWatchableStatusSourceContract('in-memory reference', () =>
  watchableHarness((change, data) => {
    for (const listener of [...data.listeners]) {
      try {
        listener(change);
      } catch {
        // One listener's failure is its own.
      }
    }
  }),
);
