import type { Credentials } from '../credentials.js';

/** A stored connection of one subject to one connector. */
export interface StoredConnection {
  connectorId: string;
  /** Secret. Never rendered, logged or put in an envelope. */
  credentials: Credentials;
  /** Scopes granted at the last verification. */
  scopes: string[];
  /** Set when the last verification (or a call) found the credentials invalid: a sentence without secrets. */
  credentialError?: string | undefined;
  /** ISO time of the last verification. */
  verifiedAt?: string | undefined;
  /**
   * Origin (`scheme://host[:port]`) the connector was configured for when these credentials were
   * verified; undefined for connections stored before it was recorded or for connectors that declare
   * none. A connector now configured for another origin treats them as invalid (see `bindConnectionsToOrigins`).
   */
  verifiedOrigin?: string | undefined;
}

/** Everything a status source knows about one subject, read in one round trip. */
export interface SubjectState {
  connections: StoredConnection[];
  /** Connector ids an administrator disabled for this subject (or for everyone). */
  disabledConnectorIds: string[];
  /** Rate-limit state: connector id to the ISO time until which it is limited. */
  rateLimitedUntil: Record<string, string>;
}

/**
 * Where per-subject connection state comes from: in memory (`@patchbay/protocol`), SQLite or
 * Postgres (`@patchbay/store`), or your own database. Reads are per turn; writes record what tool
 * calls learned so the next turn shows it.
 */
export interface StatusSource {
  /** Reads the subject's connections, admin policy and rate-limit state. */
  load(subject: string): Promise<SubjectState>;
  /**
   * Optional per-connector lookup: the subject's state for `connectorIds` alone, the same answer as
   * `load` narrowed to those connectors ({@link narrowState}) — their connections (only their
   * credentials are read and decrypted), which of them are disabled, their rate limits. The gate
   * calls it on every tool call, so a store makes it cost one connection, not all of the subject's.
   * Sources without it are read with `load` and narrowed ({@link loadConnectorState}).
   */
  loadConnectors?(subject: string, connectorIds: readonly string[]): Promise<SubjectState>;
  /** Records that a connector is rate limited for the subject until an ISO time. */
  markRateLimited(subject: string, connectorId: string, until: string): Promise<void>;
  /** Records that the subject's stored credentials were rejected, with a sentence without secrets. */
  markInvalidCredentials(subject: string, connectorId: string, error: string): Promise<void>;
}

/**
 * A subject's state narrowed to some connectors: their connections, which of them are disabled and
 * their rate limits. What {@link StatusSource.loadConnectors} answers.
 */
export function narrowState(state: SubjectState, connectorIds: readonly string[]): SubjectState {
  const wanted = new Set(connectorIds);
  return {
    connections: state.connections.filter((connection) => wanted.has(connection.connectorId)),
    disabledConnectorIds: [...new Set(state.disabledConnectorIds.filter((id) => wanted.has(id)))],
    rateLimitedUntil: Object.fromEntries(
      Object.entries(state.rateLimitedUntil).filter(([connectorId]) => wanted.has(connectorId)),
    ),
  };
}

/**
 * The subject's state for some connectors: the source's own per-connector lookup when it has one,
 * else everything `load` returns, narrowed.
 */
export async function loadConnectorState(
  source: StatusSource,
  subject: string,
  connectorIds: readonly string[],
): Promise<SubjectState> {
  if (source.loadConnectors) return source.loadConnectors(subject, connectorIds);
  return narrowState(await source.load(subject), connectorIds);
}

/** What changed in a store, as announced to every process that watches it. */
export interface StatusChange {
  /** What kind of change: a connection saved or removed, admin policy, rate limit, credentials rejected, a proposal decided. */
  kind: 'connection' | 'policy' | 'rate_limit' | 'invalid_credentials' | 'proposal';
  /** The subject whose state changed; undefined when the change applies to everyone (a global policy). */
  subject?: string | undefined;
  /** The connector (or MCP server) concerned, when there is one. */
  connectorId?: string | undefined;
}

/**
 * A status source that announces changes, so long-lived readers (the MCP gateway, an orchestrator
 * serving many turns) re-read at once instead of after a polling interval. Postgres pushes with
 * LISTEN/NOTIFY; SQLite with the cheapest reliable signal it has. Polling stays the fallback: a
 * missed announcement only delays a refresh.
 */
export interface WatchableStatusSource extends StatusSource {
  /** Calls `listener` after every change, from this process or another. Returns an unsubscribe function. */
  subscribe(listener: (change: StatusChange) => void): () => void;
  /**
   * Resolves once the subscriptions made so far receive announcements (Postgres: the LISTEN is in
   * place). A change committed before that is not announced to them, so a reader re-reads once
   * when it resolves. Absent when subscribing takes effect at once (SQLite, in memory).
   */
  listening?(): Promise<void>;
}

/** Whether a status source announces its changes. */
export function isWatchable(source: StatusSource): source is WatchableStatusSource {
  return typeof (source as Partial<WatchableStatusSource>).subscribe === 'function';
}
