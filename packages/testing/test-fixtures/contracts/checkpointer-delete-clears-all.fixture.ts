import type { Checkpointer } from '@patchbay/connector/ports';
import { describeCheckpointerContract } from '../../src/index.js';
import { checkpointerHarness, referenceCheckpointer } from './reference-ports.js';

// Broken on purpose: deleting one thread's checkpoint empties the table (a `DELETE` that lost its
// `WHERE thread_id = ?`).
describeCheckpointerContract('delete forgets every thread', () =>
  checkpointerHarness((checkpoints): Checkpointer => {
    const checkpointer = referenceCheckpointer(checkpoints);
    return {
      ...checkpointer,
      async deleteCheckpoint() {
        checkpoints.clear();
      },
    };
  }),
);
