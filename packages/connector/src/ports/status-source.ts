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
  /** Records that a connector is rate limited for the subject until an ISO time. */
  markRateLimited(subject: string, connectorId: string, until: string): Promise<void>;
  /** Records that the subject's stored credentials were rejected, with a sentence without secrets. */
  markInvalidCredentials(subject: string, connectorId: string, error: string): Promise<void>;
}
