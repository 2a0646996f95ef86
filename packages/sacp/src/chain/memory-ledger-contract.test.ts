// The in-memory ledger meets the same contract as the stores' (SQLite and Postgres in @patchbay/store).
import { describeResumeLedgerContract } from '@patchbay/testing';
import { createMemoryResumeLedger } from '../resume-ledger.js';

describeResumeLedgerContract('in memory', () => {
  const ledger = createMemoryResumeLedger();
  return { ledger, reopen: () => ledger };
});
