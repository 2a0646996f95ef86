import { describeStatusSourceContract } from '../../src/index.js';
import { referenceStatusSource, type StatusData, statusHarness } from './reference-ports.js';

/** The defective table, one per store (shared by its handles): connector id to ISO time. */
const limitsByStore = new WeakMap<StatusData, Map<string, string>>();

// Broken on purpose: rate limits are kept per connector, not per subject and connector, so one
// user hitting a limit blocks the connector for everyone (and shows them the first user's state).
describeStatusSourceContract('rate limits keyed by connector only', () =>
  statusHarness((data) => {
    const source = referenceStatusSource(data);
    const everyone = limitsByStore.get(data) ?? new Map<string, string>();
    limitsByStore.set(data, everyone);
    return {
      ...source,
      async load(subject) {
        return { ...(await source.load(subject)), rateLimitedUntil: Object.fromEntries(everyone) };
      },
      async markRateLimited(subject, connectorId, until) {
        await source.markRateLimited(subject, connectorId, until);
        everyone.set(connectorId, new Date(until).toISOString());
      },
    };
  }),
);
