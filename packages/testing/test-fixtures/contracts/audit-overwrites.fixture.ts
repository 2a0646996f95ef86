import type { AuditSink } from '@patchbay/connector/ports';
import { describeAuditSinkContract } from '../../src/index.js';

// Broken on purpose: entries are kept by event name, so a second entry of the same event replaces
// the first instead of following it (an upsert where an insert was needed).
describeAuditSinkContract('entries keyed by event', () => {
  const byEvent = new Map<unknown, Record<string, unknown>>();
  const sink: AuditSink = {
    async append(entry) {
      byEvent.set(entry.event, structuredClone({ ...entry, at: entry.at ?? new Date().toISOString() }));
    },
  };
  return { sink, entries: async () => structuredClone([...byEvent.values()]) };
});
