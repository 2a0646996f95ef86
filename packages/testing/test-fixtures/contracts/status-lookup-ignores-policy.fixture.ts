import { describeStatusSourceContract } from '../../src/index.js';
import { referenceStatusSource, statusHarness } from './reference-ports.js';

// Broken on purpose: the per-connector lookup answers connections and rate limits but forgets admin
// policy, so a tool call through the gate would run a connector an administrator disabled.
describeStatusSourceContract('per-connector lookup without policy', () =>
  statusHarness((data) => {
    const source = referenceStatusSource(data);
    return {
      ...source,
      async loadConnectors(subject, connectorIds) {
        return { ...(await source.loadConnectors!(subject, connectorIds)), disabledConnectorIds: [] };
      },
    };
  }),
);
