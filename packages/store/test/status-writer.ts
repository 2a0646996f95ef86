import type { StatusWriter } from '@patchbay/testing';
import type { PatchbayStore } from '../src/store.js';

let proposalCount = 0;

/** The watchable-source contract's writer over any Patchbay store handle. */
export function proposalWriter(store: PatchbayStore): StatusWriter {
  return {
    connect: (subject, connectorId) =>
      store.saveConnection(subject, { connectorId, credentials: { token: 'secret-token' }, scopes: [] }),
    disconnect: async (subject, connectorId) => {
      await store.deleteConnection(subject, connectorId);
    },
    disable: (connectorId, subject) => store.disableConnector(connectorId, subject),
    markRateLimited: (subject, connectorId, until) => store.markRateLimited(subject, connectorId, until),
    markInvalidCredentials: (subject, connectorId, error) =>
      store.markInvalidCredentials(subject, connectorId, error),
    decideProposal: async (subject, connectorId) => {
      proposalCount += 1;
      const id = `prop_watch_${process.pid}_${proposalCount}`;
      await store.proposals.create({
        id,
        subject,
        tool: `${connectorId}_delete`,
        args: {},
        argsHash: 'hash',
        createdAt: new Date().toISOString(),
        state: 'pending',
        owner: connectorId,
      });
      await store.proposals.transition(id, 'pending', 'approved', { decidedBy: 'ops' });
    },
  };
}
