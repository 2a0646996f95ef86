import type { Credentials } from '@patchbay/connector';
import type {
  AuditSink,
  Checkpointer,
  MemoryStore,
  ProposalStore,
  ResumeLedger,
  SubjectState,
  ThreadStore,
  WatchableStatusSource,
} from '@patchbay/connector/ports';
import type { RotateSecretKeyOptions, RotationReport } from './keyring.js';

/** A connection as listed (no credentials: listing never decrypts). */
export interface ConnectionSummary {
  connectorId: string;
  /** True when credentials are stored (a failed first connect stores none). */
  hasCredentials: boolean;
  /** Scopes granted at the last successful verification. */
  scopes: string[];
  /** Who the credentials belong to, for display. Never a secret. */
  identity?: string | undefined;
  /** Why the credentials are invalid, when the last verification or a call rejected them. */
  credentialError?: string | undefined;
  /** ISO time of the last verification. */
  verifiedAt?: string | undefined;
  /** Origin the connector was configured for when the credentials were verified (absent on older rows). */
  verifiedOrigin?: string | undefined;
}

/** What a successful connect stores. */
export interface SaveConnectionInput {
  connectorId: string;
  /** Secret; encrypted before it reaches the file. */
  credentials: Credentials;
  scopes: string[];
  /** Who the credentials belong to, for display; dropped when it holds a credential value. */
  identity?: string | undefined;
  /** ISO time of the verification; defaults to now. */
  verifiedAt?: string | undefined;
  /**
   * Origin the connector was configured for when `verify` accepted the credentials (`connector.origin`).
   * Readers refuse the credentials to a connector configured for another origin.
   */
  verifiedOrigin?: string | undefined;
  /** Names of the secret credential fields, which `identity` must not contain; default every field. */
  secretFields?: readonly string[] | undefined;
}

/** One admin rule: a connector disabled for one subject, or for everyone (`subject` undefined). */
export interface PolicyRule {
  connectorId: string;
  subject?: string | undefined;
  /** ISO time the rule was made. */
  createdAt: string;
}

/** A stored audit entry with its position in the append-only log. */
export interface AuditRecord {
  seq: number;
  at: string;
  entry: Record<string, unknown>;
}

/**
 * A reply record as `@patchbay/sacp` writes it (`SacpAuditRecord`): any JSON object, its
 * `timestamp` used as the entry's time. Structural, so the store needs no dependency on sacp.
 */
export interface ReplyAuditRecord {
  timestamp?: string | undefined;
}

/** The append-only audit log of a store: the {@link AuditSink} port, readable back. */
export interface AuditLog extends AuditSink {
  /**
   * Appends a chain reply record, which makes the log a `SacpAuditSink` of `@patchbay/sacp`
   * (`defineChain({ audit: store.audit })`). Stored as is with `event: 'sacp_reply'` (unless the
   * record names its own event) and `at` from its `timestamp`.
   */
  write(record: ReplyAuditRecord): Promise<void>;
  /**
   * True when `append` resolves only once the row is committed durably (SQLite; Postgres with
   * `auditCommit: 'synchronous'`). False when rows are batched and committed without waiting for
   * the server's disk: a caller that answers someone (the MCP gateway) need not wait for the append.
   */
  readonly synchronous: boolean;
  /** Entries in append order, optionally after a sequence number, at most `limit` (default 100). */
  list(options?: { afterSeq?: number; limit?: number }): Promise<AuditRecord[]>;
}

/** The {@link ThreadStore} port, plus what an operator needs to forget a conversation. */
export interface PatchbayThreadStore extends ThreadStore {
  /** Deletes every message of a thread. Returns false when it had none. */
  delete(threadId: string): Promise<boolean>;
}

/** A {@link MemoryStore} that can also delete what it holds: an entry, or a whole memory. */
export interface ForgettingMemoryStore extends MemoryStore {
  /** Deletes one entry for good; false when the subject has no such entry in that memory. */
  forgetEntry(subject: string, vaultId: string, memoryId: string, entryId: string): Promise<boolean>;
  /** Deletes a memory with every entry and context version; `not_found` when it is not the subject's. */
  forgetMemory(
    subject: string,
    vaultId: string,
    memoryId: string,
  ): Promise<{ entries: number; contexts: number }>;
}

/**
 * Everything Patchbay persists, behind one interface so the embedded SQLite store and the Postgres
 * store are interchangeable. It is a {@link WatchableStatusSource} (it announces every change to
 * every process) and a {@link Checkpointer}; `proposals` is a {@link ProposalStore}, `threads` a
 * {@link ThreadStore} and `audit` an {@link AuditSink}.
 */
export interface PatchbayStore extends WatchableStatusSource, Checkpointer {
  /** Where the data lives: a file path for SQLite, the URL without its password for Postgres. */
  readonly location: string;
  /** Proposals awaiting or past approval; every transition is a compare-and-set. */
  readonly proposals: ProposalStore;
  /** The append-only audit log; also a `SacpAuditSink` of `@patchbay/sacp`. */
  readonly audit: AuditLog;
  /** Conversation threads: the `ThreadStore` for `runTurn` of `@patchbay/turn`. */
  readonly threads: PatchbayThreadStore;
  /**
   * Long-term memory (seed 002): vaults, memories, entries, versioned contexts, ranked search, scoped
   * by subject; redacted and sealed with the store's key before anything is written, and forgettable.
   */
  readonly memory: ForgettingMemoryStore;
  /**
   * The resume ledger of `@patchbay/sacp` chains (`defineChain({ resumeLedger: store.resumeLedger })`):
   * a paused run resumes once across every process on this store.
   */
  readonly resumeLedger: ResumeLedger;

  /**
   * Per-connector status read (the gate's, on every tool call): the same as `load` narrowed to
   * `connectorIds`, decrypting only their credentials.
   */
  loadConnectors(subject: string, connectorIds: readonly string[]): Promise<SubjectState>;
  /**
   * Re-encrypts every stored credential under `newKey` in small transactions; interruptible without
   * loss (a rerun resumes). Configure the old key in `PATCHBAY_PREVIOUS_SECRET_KEYS` (or
   * `previousSecretKeys`) on every instance while it runs. See the README's operating section.
   */
  rotateSecretKey(newKey: string | Uint8Array, options?: RotateSecretKeyOptions): Promise<RotationReport>;
  /** Stores (or replaces) a verified connection and clears its error and rate-limit state. */
  saveConnection(subject: string, connection: SaveConnectionInput): Promise<void>;
  /**
   * Records a failed verification: the connection shows `invalid_credentials` with `error`. The
   * rejected credentials are not stored; earlier ones, if any, stay encrypted but unused until a
   * successful connect.
   */
  recordFailedVerification(subject: string, connectorId: string, error: string, at?: string): Promise<void>;
  /** Lists a subject's connections without decrypting anything. */
  listConnections(subject: string): Promise<ConnectionSummary[]>;
  /** One connection with its decrypted credentials, or undefined. */
  getConnection(
    subject: string,
    connectorId: string,
  ): Promise<(ConnectionSummary & { credentials: Credentials }) | undefined>;
  /** Removes a connection (and its rate-limit state). Returns false when there was none. */
  deleteConnection(subject: string, connectorId: string): Promise<boolean>;

  /** Disables a connector for one subject, or for everyone when `subject` is undefined. */
  disableConnector(connectorId: string, subject?: string): Promise<void>;
  /** Removes the matching disable rule. Returns false when there was none. */
  enableConnector(connectorId: string, subject?: string): Promise<boolean>;
  /** Every admin rule. */
  listPolicy(): Promise<PolicyRule[]>;
  /** Forgets a rate limit before it runs out (e.g. after a successful call). */
  clearRateLimit(subject: string, connectorId: string): Promise<void>;

  /**
   * Releases the database handles. SQLite closes at once; Postgres returns a promise that settles
   * when every connection has ended (a process may exit without awaiting it).
   */
  close(): void | Promise<void>;
}
