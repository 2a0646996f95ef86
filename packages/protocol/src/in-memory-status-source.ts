import type { Credentials } from '@patchbay/connector';
import type {
  StatusChange,
  StoredConnection,
  SubjectState,
  WatchableStatusSource,
} from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';

/** Initial content of an in-memory status source. */
export interface InMemoryStatusSourceState {
  /** Stored connections by subject. */
  connections?: Record<string, StoredConnection[]>;
  /** Connector ids disabled for everyone. */
  disabledConnectorIds?: string[];
  /** Connector ids disabled per subject. */
  disabledBySubject?: Record<string, string[]>;
  /** Rate-limit state by subject, then connector id, as an ISO time. */
  rateLimitedUntil?: Record<string, Record<string, string>>;
}

/**
 * A status source held in process memory, with setters for the operations a CLI or test needs. It
 * announces every change to its subscribers (synchronously, after the change), so a gateway or a
 * long-lived orchestrator on it reacts at once, as on a store.
 */
export interface InMemoryStatusSource extends WatchableStatusSource {
  /** Stores (or replaces) a subject's connection; clears any earlier credential error. */
  connect(
    subject: string,
    connectorId: string,
    connection: {
      credentials: Credentials;
      scopes?: string[];
      /** Origin the credentials were verified against (`connector.origin`); default: the connector's default origin. */
      verifiedOrigin?: string;
    },
  ): void;
  /** Removes a subject's connection. */
  disconnect(subject: string, connectorId: string): void;
  /** Admin policy: disables a connector for one subject, or for everyone when no subject is given. */
  disable(connectorId: string, subject?: string): void;
  /** Lifts a {@link InMemoryStatusSource.disable} made with the same arguments. */
  enable(connectorId: string, subject?: string): void;
  /** Sets (or with `undefined` clears) the time until which a connector is rate limited for a subject. */
  setRateLimit(subject: string, connectorId: string, until: Date | string | undefined): void;
}

/** The UTC ISO form of a time; a value that is no time is refused, as the SQLite store refuses it. */
function isoTime(value: Date | string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new PatchbayError('invalid_arguments', `not a valid time: ${String(value)}`);
  return time.toISOString();
}

/**
 * Creates an in-memory status source: for tests, examples and single-process tools. It keeps
 * secrets in memory unencrypted; `@patchbay/store` is the persistent one.
 */
export function createInMemoryStatusSource(initial: InMemoryStatusSourceState = {}): InMemoryStatusSource {
  const connections = new Map<string, Map<string, StoredConnection>>();
  for (const [subject, list] of Object.entries(initial.connections ?? {})) {
    connections.set(subject, new Map(list.map((connection) => [connection.connectorId, { ...connection }])));
  }
  const globallyDisabled = new Set(initial.disabledConnectorIds ?? []);
  const disabledBySubject = new Map<string, Set<string>>(
    Object.entries(initial.disabledBySubject ?? {}).map(([subject, ids]) => [subject, new Set(ids)]),
  );
  const rateLimits = new Map<string, Map<string, string>>(
    Object.entries(initial.rateLimitedUntil ?? {}).map(([subject, limits]) => [
      subject,
      new Map(Object.entries(limits)),
    ]),
  );

  const listeners = new Set<(change: StatusChange) => void>();
  const announce = (kind: StatusChange['kind'], subject: string | undefined, connectorId: string) => {
    const change: StatusChange = { kind, connectorId, ...(subject === undefined ? {} : { subject }) };
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch {
        // One listener's failure does not keep the change from the others.
      }
    }
  };

  const subjectMap = <Value>(maps: Map<string, Map<string, Value>>, subject: string) => {
    let map = maps.get(subject);
    if (!map) {
      map = new Map();
      maps.set(subject, map);
    }
    return map;
  };

  // Copies, so a caller mutating what it loaded cannot change the stored state.
  const copy = (connection: StoredConnection): StoredConnection => ({
    ...connection,
    credentials: { ...connection.credentials },
    scopes: [...connection.scopes],
  });

  return {
    async load(subject: string): Promise<SubjectState> {
      const disabled = new Set([...globallyDisabled, ...(disabledBySubject.get(subject) ?? [])]);
      return {
        connections: [...(connections.get(subject)?.values() ?? [])].map(copy),
        disabledConnectorIds: [...disabled],
        rateLimitedUntil: Object.fromEntries(rateLimits.get(subject) ?? []),
      };
    },
    async loadConnectors(subject: string, connectorIds: readonly string[]): Promise<SubjectState> {
      const stored = connections.get(subject);
      const perSubject = disabledBySubject.get(subject);
      const limits = rateLimits.get(subject);
      const state: SubjectState = { connections: [], disabledConnectorIds: [], rateLimitedUntil: {} };
      for (const connectorId of new Set(connectorIds)) {
        const connection = stored?.get(connectorId);
        if (connection) state.connections.push(copy(connection));
        if (globallyDisabled.has(connectorId) || perSubject?.has(connectorId))
          state.disabledConnectorIds.push(connectorId);
        const until = limits?.get(connectorId);
        if (until !== undefined) state.rateLimitedUntil[connectorId] = until;
      }
      return state;
    },
    subscribe(listener) {
      // A wrapper per subscription, so the same function subscribed twice is called twice.
      const entry = (change: StatusChange) => listener(change);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    async markRateLimited(subject, connectorId, until) {
      subjectMap(rateLimits, subject).set(connectorId, isoTime(until));
      announce('rate_limit', subject, connectorId);
    },
    async markInvalidCredentials(subject, connectorId, error) {
      const connection = connections.get(subject)?.get(connectorId);
      if (!connection) return;
      connection.credentialError = error;
      announce('invalid_credentials', subject, connectorId);
    },
    connect(subject, connectorId, { credentials, scopes = [], verifiedOrigin }) {
      subjectMap(connections, subject).set(connectorId, {
        connectorId,
        credentials: { ...credentials },
        scopes: [...scopes],
        ...(verifiedOrigin === undefined ? {} : { verifiedOrigin }),
      });
      announce('connection', subject, connectorId);
    },
    disconnect(subject, connectorId) {
      if (connections.get(subject)?.delete(connectorId)) announce('connection', subject, connectorId);
    },
    disable(connectorId, subject) {
      if (subject === undefined) {
        globallyDisabled.add(connectorId);
      } else {
        let set = disabledBySubject.get(subject);
        if (!set) {
          set = new Set();
          disabledBySubject.set(subject, set);
        }
        set.add(connectorId);
      }
      announce('policy', subject, connectorId);
    },
    enable(connectorId, subject) {
      const lifted =
        subject === undefined
          ? globallyDisabled.delete(connectorId)
          : (disabledBySubject.get(subject)?.delete(connectorId) ?? false);
      if (lifted) announce('policy', subject, connectorId);
    },
    setRateLimit(subject, connectorId, until) {
      if (until === undefined) rateLimits.get(subject)?.delete(connectorId);
      else subjectMap(rateLimits, subject).set(connectorId, isoTime(until));
      announce('rate_limit', subject, connectorId);
    },
  };
}
