import type { StatusChange, WatchableStatusSource } from '@patchbay/connector/ports';
import type { WatchableStatusSourceHarness } from '../../src/index.js';
import { referenceStatusSource, roundTrip, type StatusData } from './reference-ports.js';

/** Shared data of the watchable reference: the status data plus who listens to it. */
interface WatchData extends StatusData {
  listeners: Set<(change: StatusChange) => void>;
}

/**
 * One handle on the shared data. `announce` decides which listeners hear this handle's writes:
 * the correct source tells every handle's listeners; a defective one may tell fewer.
 */
function handle(
  data: WatchData,
  own: Set<(change: StatusChange) => void>,
  announce: (change: StatusChange, own: Set<(change: StatusChange) => void>) => void,
): WatchableStatusSource & { connect(subject: string, connectorId: string): Promise<void> } {
  const source = referenceStatusSource(data);
  // Told at commit, to those listening then.
  const tell = (change: StatusChange) => announce(change, own);
  return {
    ...source,
    subscribe(listener) {
      const entry = (change: StatusChange) => listener(change);
      own.add(entry);
      data.listeners.add(entry);
      return () => {
        own.delete(entry);
        data.listeners.delete(entry);
      };
    },
    async markRateLimited(subject, connectorId, until) {
      await source.markRateLimited(subject, connectorId, until);
      tell({ kind: 'rate_limit', subject, connectorId });
    },
    async markInvalidCredentials(subject, connectorId, error) {
      await source.markInvalidCredentials(subject, connectorId, error);
      tell({ kind: 'invalid_credentials', subject, connectorId });
    },
    async connect(subject, connectorId) {
      await roundTrip();
      const connections = data.connections.get(subject) ?? new Map();
      data.connections.set(subject, connections);
      connections.set(connectorId, { connectorId, credentials: { token: 't' }, scopes: [] });
      tell({ kind: 'connection', subject, connectorId });
    },
  };
}

/**
 * A harness over an in-memory watchable source: a watched handle and a writing handle on the same
 * data; `announce` is how a write reaches listeners.
 */
export function watchableHarness(
  announce: (change: StatusChange, data: WatchData, own: Set<(change: StatusChange) => void>) => void,
): WatchableStatusSourceHarness {
  const data: WatchData = {
    connections: new Map(),
    disabled: new Map(),
    rateLimits: new Map(),
    listeners: new Set(),
  };
  const watched = handle(data, new Set(), (change, own) => announce(change, data, own));
  const writerHandle = handle(data, new Set(), (change, own) => announce(change, data, own));
  const tell = (change: StatusChange) => announce(change, data, new Set());
  return {
    source: watched,
    writer: {
      connect: (subject, connectorId) => writerHandle.connect(subject, connectorId),
      disconnect: async (subject, connectorId) => {
        await roundTrip();
        data.connections.get(subject)?.delete(connectorId);
        tell({ kind: 'connection', subject, connectorId });
      },
      disable: async (connectorId, subject) => {
        await roundTrip();
        tell({ kind: 'policy', ...(subject ? { subject } : {}), connectorId });
      },
      markRateLimited: (subject, connectorId, until) =>
        writerHandle.markRateLimited(subject, connectorId, until),
      markInvalidCredentials: (subject, connectorId, error) =>
        writerHandle.markInvalidCredentials(subject, connectorId, error),
      decideProposal: async (subject, connectorId) => {
        await roundTrip();
        tell({ kind: 'proposal', subject, connectorId });
      },
    },
  };
}
