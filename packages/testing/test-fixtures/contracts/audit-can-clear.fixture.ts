import type { AuditEntry, AuditSink } from '@patchbay/connector/ports';
import { describeAuditSinkContract } from '../../src/index.js';
import { referenceAuditSink } from './reference-ports.js';

// Broken on purpose: a correct log that also offers `clear()`, so any holder of the sink can
// erase the history it is meant to keep.
describeAuditSinkContract('with a clear method', () => {
  const entries: AuditEntry[] = [];
  const sink: AuditSink & { clear(): void } = {
    ...referenceAuditSink(entries),
    clear: () => {
      entries.length = 0;
    },
  };
  return { sink, entries: async () => structuredClone(entries) };
});
