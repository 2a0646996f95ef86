import { describeWatchableStatusSourceContract } from '../../src/index.js';
import { watchableHarness } from './watchable-ports.js';

// Broken on purpose: a handle tells only its own listeners, as a store that emits from its write
// methods instead of watching the database would: another process's connect is never heard.
describeWatchableStatusSourceContract('announces only its own writes', () =>
  watchableHarness((change, _data, own) => {
    for (const listener of [...own]) listener(change);
  }),
);
