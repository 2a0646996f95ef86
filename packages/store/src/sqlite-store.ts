import type { Credentials } from '@patchbay/connector';
import {
  narrowState,
  type ResumeLedger,
  type StatusChange,
  type StoredConnection,
  type SubjectState,
} from '@patchbay/connector/ports';
import { displayIdentity } from '@patchbay/helpers';
import { CredentialCache, openConnection } from './credential-cache.js';
import { seal } from './credential-cipher.js';
import {
  type Keyring,
  type KeyringKey,
  keyFrom,
  openWithRing,
  type RotateSecretKeyOptions,
  type RotationReport,
  ringKeys,
  rotationBatchSize,
  withKeyId,
} from './keyring.js';
import { SqliteResumeLedger } from './resume-ledger.js';
import { deriveProposalKey, type ResolvedSecretKey } from './secret-key.js';
import { SqliteAuditLog } from './sqlite-audit-log.js';
import { immediateTransaction } from './sqlite-database.js';
import type { SqliteHandle } from './sqlite-handle.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';
import { SqliteProposalStore } from './sqlite-proposal-store.js';
import { SqliteThreadStore } from './sqlite-thread-store.js';
import { SqliteWatcher } from './sqlite-watcher.js';
import { StatusCache } from './status-cache.js';
import type { ConnectionSummary, PatchbayStore, PolicyRule, SaveConnectionInput } from './store.js';
import {
  type ConnectionRow,
  checkpointJson,
  credentialContext,
  everySubject,
  keyCheckName,
  keyCheckPlaintext,
  normaliseUntil,
  packSealed,
  requireName,
  summary,
  unpackSealed,
} from './store-rows.js';

/**
 * The state of some connectors in one statement: their connection rows (part 0), disable rules
 * (part 1) and live rate limits (part 2). `?2` is one connector id ({@link oneConnectorState}) or a
 * JSON array of them ({@link someConnectorsState}); `?3` is {@link everySubject}, `?4` the time now.
 */
function connectorStateSql(match: string): string {
  return `SELECT 0 AS part, connector_id, credentials_ciphertext, credentials_iv, credentials_tag, scopes, identity,
            credential_error, verified_at, verified_origin, key_id, NULL AS until
          FROM connections WHERE subject = ?1 AND ${match}
          UNION ALL
          SELECT 1, connector_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
          FROM admin_policy WHERE subject IN (?1, ?3) AND ${match}
          UNION ALL
          SELECT 2, connector_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, until
          FROM rate_limits WHERE subject = ?1 AND ${match} AND until > ?4`;
}
const oneConnectorState = connectorStateSql('connector_id = ?2');
const someConnectorsState = connectorStateSql('connector_id IN (SELECT value FROM json_each(?2))');
/**
 * Every connector of the subject (`?2` unused). Unordered: {@link SqliteStore.readState} puts the rows
 * in connector order, since an `ORDER BY` over the union costs SQLite three temporary sorts, about as
 * much as the statement itself.
 */
const allConnectorsState = connectorStateSql('?2 IS NULL');
const byConnectorId = (a: { connector_id: string }, b: { connector_id: string }) =>
  a.connector_id < b.connector_id ? -1 : a.connector_id > b.connector_id ? 1 : 0;

/** The embedded SQLite implementation of {@link PatchbayStore}. */
export class SqliteStore implements PatchbayStore {
  readonly proposals: SqliteProposalStore;
  readonly audit: SqliteAuditLog;
  readonly threads: SqliteThreadStore;
  readonly resumeLedger: ResumeLedger;
  readonly memory: SqliteMemoryStore;
  private ring: Keyring | undefined;
  private readonly previousKeys: () => KeyringKey[];
  private proposalKey: Buffer | undefined;
  private previousProposalKeys: Buffer[] | undefined;
  /** Credentials already decrypted, by the exact sealed value. */
  private readonly opened = new CredentialCache();
  private readonly watcher: SqliteWatcher;
  /** Subject states read, kept exact by the announcements every writer's triggers write (see {@link seenChanges}). */
  private readonly cache: StatusCache | undefined;
  /** The newest `status_changes` seq the cache has accounted for; -1 before the first read. */
  private seenSeq = -1;

  constructor(
    private readonly handle: SqliteHandle,
    private readonly keyResolver: () => ResolvedSecretKey,
    options: {
      maxThreadMessageChars?: number | undefined;
      watchIntervalMs?: number | undefined;
      /** Keys credentials may still be sealed with (a rotation in progress); read lazily. */
      previousKeys?: (() => KeyringKey[]) | undefined;
      /** Keep each subject's status between reads (default true); see {@link seenChanges}. */
      statusCache?: boolean | undefined;
      /** Most subjects the status cache keeps (least recently used dropped first). */
      statusCacheSize?: number | undefined;
    } = {},
  ) {
    if (options.statusCache !== false) {
      this.cache = new StatusCache(options.statusCacheSize);
      this.cache.setListening(true);
    }
    this.previousKeys = options.previousKeys ?? (() => []);
    this.watcher = new SqliteWatcher(handle.path, options.watchIntervalMs);
    this.proposals = new SqliteProposalStore(
      handle,
      () => {
        this.proposalKey ??= deriveProposalKey(this.key().key);
        return this.proposalKey;
      },
      () => {
        // Once per store: the same buffers every time, so their key objects are made once too.
        this.previousProposalKeys ??= this.previousKeys().map((key) => deriveProposalKey(key.key));
        return this.previousProposalKeys;
      },
    );
    this.resumeLedger = new SqliteResumeLedger(handle);
    this.audit = new SqliteAuditLog(handle);
    this.threads = new SqliteThreadStore(handle, options.maxThreadMessageChars);
    this.memory = new SqliteMemoryStore(handle, {
      current: () => this.key(),
      all: () => ringKeys(this.keyring()),
    });
  }

  /** The database file. */
  get location(): string {
    return this.handle.path;
  }

  /**
   * Resolves the keys on first use and checks them against the value sealed with the first key
   * this database saw (re-sealed by each finished rotation), so a wrong key fails loudly before any
   * credential is touched. Any key of the ring may open it: during a rotation it is still the old one.
   */
  private keyring(extra: readonly KeyringKey[] = []): Keyring {
    if (this.ring && extra.length === 0) return this.ring;
    const ring: Keyring = this.ring ?? {
      current: withKeyId(this.keyResolver()),
      previous: this.previousKeys(),
    };
    const keys = ringKeys(ring, extra);
    this.handle.guard((database) => {
      const read = () =>
        this.handle.prepare('SELECT value FROM store_meta WHERE key = ?').get(keyCheckName) as
          | { value: Uint8Array }
          | undefined;
      let row = read();
      if (!row) {
        immediateTransaction(database, () => {
          const value = packSealed(seal(ring.current.key, keyCheckPlaintext, keyCheckName));
          this.handle
            .prepare('INSERT OR IGNORE INTO store_meta (key, value) VALUES (?, ?)')
            .run(keyCheckName, value);
        });
        row = read()!;
      }
      openWithRing(keys, unpackSealed(row.value), keyCheckName, null);
    });
    this.ring = ring;
    return ring;
  }

  /** The key every write is sealed with. */
  private key(): KeyringKey {
    return this.keyring().current;
  }

  private decrypt(subject: string, row: ConnectionRow): Credentials {
    return openConnection(this.opened, subject, row, () => ringKeys(this.keyring()));
  }

  /**
   * Re-encrypts every stored credential under `newKey`, in transactions of `batchSize` rows, each
   * row recording the id of the key that sealed it. Interrupted (killed, or `afterBatch` throws),
   * nothing is lost: committed batches are under the new key, the rest under the old one, reads
   * work with either while both are configured, and a rerun resumes with the rows left. The key
   * check is re-sealed under the new key last, so an instance with only the old key then fails loudly.
   */
  async rotateSecretKey(
    newKey: string | Uint8Array,
    options: RotateSecretKeyOptions = {},
  ): Promise<RotationReport> {
    const target = keyFrom(newKey, 'the new key');
    const batchSize = rotationBatchSize(options);
    const keys = ringKeys(this.keyring([target]), [target]);
    let rotated = 0;
    for (;;) {
      const count = this.handle.guard((database) =>
        immediateTransaction(database, () => {
          const rows = this.handle
            .prepare(
              `SELECT * FROM connections WHERE credentials_ciphertext IS NOT NULL
               AND (key_id IS NULL OR key_id <> ?) ORDER BY subject, connector_id LIMIT ?`,
            )
            .all(target.id, batchSize) as unknown as (ConnectionRow & { subject: string })[];
          const update = this.handle.prepare(
            `UPDATE connections SET credentials_ciphertext = ?, credentials_iv = ?, credentials_tag = ?, key_id = ?
             WHERE subject = ? AND connector_id = ?`,
          );
          for (const row of rows) {
            const context = credentialContext(row.subject, row.connector_id);
            const plaintext = openWithRing(
              keys,
              { ciphertext: row.credentials_ciphertext!, iv: row.credentials_iv!, tag: row.credentials_tag! },
              context,
              row.key_id,
            );
            const sealed = seal(target.key, plaintext, context);
            update.run(sealed.ciphertext, sealed.iv, sealed.tag, target.id, row.subject, row.connector_id);
          }
          return rows.length;
        }),
      );
      if (count === 0) break;
      rotated += count;
      await options.afterBatch?.({ rotated });
    }
    // Memory rows are sealed with the same key: re-sealed too (not counted in `rotated`, which
    // counts credentials), before the key check moves, so no row is left that only the old key opens.
    let resealed: number;
    do resealed = this.memory.resealBatch(target, keys, batchSize);
    while (resealed > 0);
    this.handle.guard(() =>
      this.handle
        .prepare(
          'INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        )
        .run(keyCheckName, packSealed(seal(target.key, keyCheckPlaintext, keyCheckName))),
    );
    const ring = this.keyring();
    this.ring = { current: target, previous: ringKeys(ring).filter((key) => key.id !== target.id) };
    return { keyId: target.id, rotated };
  }

  /**
   * Calls `listener` after every committed change, from this process or another: triggers record
   * each change in the writing transaction, and a poll of `PRAGMA data_version` notices the commit.
   */
  subscribe(listener: (change: StatusChange) => void): () => void {
    return this.watcher.subscribe(listener);
  }

  /** Reads connections, admin policy and live rate limits in one statement, so they are one snapshot. */
  async load(subject: string): Promise<SubjectState> {
    requireName(subject, 'subject');
    const kept = this.kept(subject, undefined);
    if (kept) return kept;
    return this.readSubject(subject);
  }

  /**
   * The same as {@link load} for some connectors only: one statement (one snapshot, no explicit
   * transaction) that finds each row by primary key, and only those credentials are decrypted, so
   * a tool call costs one connection, not all of the subject's.
   */
  async loadConnectors(subject: string, connectorIds: readonly string[]): Promise<SubjectState> {
    requireName(subject, 'subject');
    const ids = [...new Set(connectorIds)];
    if (ids.length === 0) return { connections: [], disabledConnectorIds: [], rateLimitedUntil: {} };
    const kept = this.kept(subject, ids);
    if (kept) return kept;
    // With the cache, a miss reads the whole subject (the same one statement) and keeps it, so the
    // next gate call and the next turn's capture are answered from memory.
    if (this.cache) return narrowState(this.readSubject(subject), ids);
    return this.readState(
      subject,
      ids.length === 1 ? oneConnectorState : someConnectorsState,
      ids.length === 1 ? ids[0]! : JSON.stringify(ids),
    );
  }

  /**
   * The kept state of `subject` (narrowed to `connectorIds`), after dropping what the announcements
   * committed since the last read name. Every write to connections, rate limits and admin policy, by
   * any connection of any process, inserts a `status_changes` row in its own transaction (migration 6's
   * triggers), so the newest seq (`sqlite_sequence`, a few microseconds to read) says exactly whether
   * anything changed: there is no window in which another writer's committed change is missed. New
   * rows name their subject (a rule for everyone names none and drops everything); a gap in the
   * sequence (pruned announcements) drops everything too. Rate limits are filtered against the clock
   * on every hit, as the statement does.
   */
  private kept(subject: string, connectorIds: string[] | undefined): SubjectState | undefined {
    const cache = this.cache;
    // Inside a transaction of this connection the read could see writes that are then rolled back
    // (and the seq with them): such reads neither use nor fill the cache.
    if (!cache || this.handle.guard((database) => database.isTransaction)) return undefined;
    this.handle.guard(() => this.seenChanges(cache));
    return cache.get(subject, new Date().toISOString(), connectorIds);
  }

  private seenChanges(cache: StatusCache): void {
    const latest = Number(
      (this.handle.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'status_changes'").get()?.seq as
        | number
        | undefined) ?? 0,
    );
    if (latest === this.seenSeq) return;
    if (this.seenSeq < 0 || latest < this.seenSeq) cache.invalidate(undefined);
    else {
      const changes = this.handle
        .prepare('SELECT seq, subject FROM status_changes WHERE seq > ? AND seq <= ? ORDER BY seq')
        .all(this.seenSeq, latest) as { seq: number; subject: string | null }[];
      if (changes.length !== latest - this.seenSeq) cache.invalidate(undefined);
      else for (const change of changes) cache.invalidate(change.subject ?? undefined);
    }
    this.seenSeq = latest;
  }

  /** Reads a whole subject's state and keeps it (unless something was invalidated meanwhile). */
  private readSubject(subject: string): SubjectState {
    const token = this.handle.guard((database) => database.isTransaction) ? undefined : this.cache?.begin();
    const state = this.readState(subject, allConnectorsState, null);
    if (token) this.cache!.put(subject, token, state);
    return state;
  }

  private readState(subject: string, sql: string, match: string | null): SubjectState {
    requireName(subject, 'subject');
    const now = new Date().toISOString();
    const parts = this.handle.guard(
      () =>
        this.handle.prepare(sql).all(subject, match, everySubject, now) as unknown as (
          | (ConnectionRow & { part: 0 })
          | { part: 1; connector_id: string }
          | { part: 2; connector_id: string; until: string }
        )[],
    );
    const rows: ConnectionRow[] = [];
    const disabled = new Set<string>();
    const limits: { connector_id: string; until: string }[] = [];
    for (const part of parts) {
      if (part.part === 0) rows.push(part);
      else if (part.part === 1) disabled.add(part.connector_id);
      else limits.push(part);
    }
    return this.toState(
      subject,
      rows.sort(byConnectorId),
      [...disabled].sort().map((connector_id) => ({ connector_id })),
      limits.sort(byConnectorId),
    );
  }

  private toState(
    subject: string,
    rows: ConnectionRow[],
    disabled: { connector_id: string }[],
    limits: { connector_id: string; until: string }[],
  ): SubjectState {
    const connections: StoredConnection[] = rows.map((row) => {
      const { connectorId, scopes, credentialError, verifiedAt, verifiedOrigin } = summary(row);
      const connection: StoredConnection = { connectorId, credentials: this.decrypt(subject, row), scopes };
      if (credentialError !== undefined) connection.credentialError = credentialError;
      if (verifiedAt !== undefined) connection.verifiedAt = verifiedAt;
      if (verifiedOrigin !== undefined) connection.verifiedOrigin = verifiedOrigin;
      return connection;
    });
    return {
      connections,
      disabledConnectorIds: disabled.map((row) => row.connector_id),
      rateLimitedUntil: Object.fromEntries(limits.map((row) => [row.connector_id, row.until])),
    };
  }

  /** Records a rate limit until an ISO time (normalised to UTC). */
  async markRateLimited(subject: string, connectorId: string, until: string): Promise<void> {
    requireName(subject, 'subject');
    requireName(connectorId, 'connectorId');
    const normalised = normaliseUntil(until);
    this.handle.guard(() =>
      this.handle
        .prepare(
          `INSERT INTO rate_limits (subject, connector_id, until) VALUES (?, ?, ?)
           ON CONFLICT (subject, connector_id) DO UPDATE SET until = excluded.until`,
        )
        .run(subject, connectorId, normalised),
    );
  }

  /** Marks an existing connection invalid; without a stored connection there is nothing to mark. */
  async markInvalidCredentials(subject: string, connectorId: string, error: string): Promise<void> {
    this.handle.guard(() =>
      this.handle
        .prepare(
          'UPDATE connections SET credential_error = ?, updated_at = ? WHERE subject = ? AND connector_id = ?',
        )
        .run(error, new Date().toISOString(), subject, connectorId),
    );
  }

  /**
   * Encrypts and stores a verified connection. An identity holding a credential value (a verify that
   * echoes the token) is dropped, never stored: identity is display-only and sits in the clear.
   */
  async saveConnection(subject: string, connection: SaveConnectionInput): Promise<void> {
    requireName(subject, 'subject');
    requireName(connection.connectorId, 'connectorId');
    const identity = displayIdentity(connection.identity, connection.credentials, connection.secretFields);
    const sealing = this.key();
    const sealed = seal(
      sealing.key,
      JSON.stringify(connection.credentials),
      credentialContext(subject, connection.connectorId),
    );
    const now = new Date().toISOString();
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        this.handle
          .prepare(
            `INSERT INTO connections (subject, connector_id, credentials_ciphertext, credentials_iv, credentials_tag,
               scopes, identity, credential_error, verified_at, verified_origin, created_at, updated_at, key_id)
             VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)
             ON CONFLICT (subject, connector_id) DO UPDATE SET
               credentials_ciphertext = excluded.credentials_ciphertext, credentials_iv = excluded.credentials_iv,
               credentials_tag = excluded.credentials_tag, key_id = excluded.key_id, scopes = excluded.scopes, identity = excluded.identity,
               credential_error = NULL, verified_at = excluded.verified_at,
               verified_origin = excluded.verified_origin, updated_at = excluded.updated_at`,
          )
          .run(
            subject,
            connection.connectorId,
            sealed.ciphertext,
            sealed.iv,
            sealed.tag,
            JSON.stringify(connection.scopes),
            identity ?? null,
            connection.verifiedAt ?? now,
            connection.verifiedOrigin ?? null,
            now,
            now,
            sealing.id,
          );
        this.handle
          .prepare('DELETE FROM rate_limits WHERE subject = ? AND connector_id = ?')
          .run(subject, connection.connectorId);
      }),
    );
  }

  /** Upserts the connection row with the verification error, keeping whatever credentials it had. */
  async recordFailedVerification(
    subject: string,
    connectorId: string,
    error: string,
    at?: string,
  ): Promise<void> {
    requireName(subject, 'subject');
    requireName(connectorId, 'connectorId');
    const now = new Date().toISOString();
    this.handle.guard(() =>
      this.handle
        .prepare(
          `INSERT INTO connections (subject, connector_id, scopes, credential_error, verified_at, created_at, updated_at)
           VALUES (?, ?, '[]', ?, ?, ?, ?)
           ON CONFLICT (subject, connector_id) DO UPDATE SET
             credential_error = excluded.credential_error, verified_at = excluded.verified_at, updated_at = excluded.updated_at`,
        )
        .run(subject, connectorId, error, at ?? now, now, now),
    );
  }

  /** Connections of a subject, without credentials. */
  async listConnections(subject: string): Promise<ConnectionSummary[]> {
    return this.handle.guard(() =>
      (
        this.handle
          .prepare('SELECT * FROM connections WHERE subject = ? ORDER BY connector_id')
          .all(subject) as unknown as ConnectionRow[]
      ).map(summary),
    );
  }

  /** One connection with decrypted credentials. */
  async getConnection(
    subject: string,
    connectorId: string,
  ): Promise<(ConnectionSummary & { credentials: Credentials }) | undefined> {
    const row = this.handle.guard(
      () =>
        this.handle
          .prepare('SELECT * FROM connections WHERE subject = ? AND connector_id = ?')
          .get(subject, connectorId) as ConnectionRow | undefined,
    );
    return row ? { ...summary(row), credentials: this.decrypt(subject, row) } : undefined;
  }

  /** Deletes a connection and its rate-limit state. */
  async deleteConnection(subject: string, connectorId: string): Promise<boolean> {
    return this.handle.guard((database) =>
      immediateTransaction(database, () => {
        this.handle
          .prepare('DELETE FROM rate_limits WHERE subject = ? AND connector_id = ?')
          .run(subject, connectorId);
        const result = this.handle
          .prepare('DELETE FROM connections WHERE subject = ? AND connector_id = ?')
          .run(subject, connectorId);
        return Number(result.changes) > 0;
      }),
    );
  }

  /** Adds a disable rule (idempotent). */
  async disableConnector(connectorId: string, subject?: string): Promise<void> {
    requireName(connectorId, 'connectorId');
    this.handle.guard(() =>
      this.handle
        .prepare('INSERT OR IGNORE INTO admin_policy (connector_id, subject, created_at) VALUES (?, ?, ?)')
        .run(connectorId, subject ?? everySubject, new Date().toISOString()),
    );
  }

  /** Removes a disable rule. */
  async enableConnector(connectorId: string, subject?: string): Promise<boolean> {
    return this.handle.guard(() => {
      const result = this.handle
        .prepare('DELETE FROM admin_policy WHERE connector_id = ? AND subject = ?')
        .run(connectorId, subject ?? everySubject);
      return Number(result.changes) > 0;
    });
  }

  /** Every admin rule, global ones first. */
  async listPolicy(): Promise<PolicyRule[]> {
    return this.handle.guard(() =>
      (
        this.handle
          .prepare(
            'SELECT connector_id, subject, created_at FROM admin_policy ORDER BY subject, connector_id',
          )
          .all() as {
          connector_id: string;
          subject: string;
          created_at: string;
        }[]
      ).map((row) => {
        const rule: PolicyRule = { connectorId: row.connector_id, createdAt: row.created_at };
        if (row.subject !== everySubject) rule.subject = row.subject;
        return rule;
      }),
    );
  }

  /** Deletes a rate-limit row. */
  async clearRateLimit(subject: string, connectorId: string): Promise<void> {
    this.handle.guard(() =>
      this.handle
        .prepare('DELETE FROM rate_limits WHERE subject = ? AND connector_id = ?')
        .run(subject, connectorId),
    );
  }

  /** Saves a JSON checkpoint. */
  async saveCheckpoint(threadId: string, value: unknown): Promise<void> {
    requireName(threadId, 'threadId');
    const json = checkpointJson(value);
    this.handle.guard(() =>
      this.handle
        .prepare(
          `INSERT INTO checkpoints (thread_id, value, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (thread_id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        )
        .run(threadId, json, new Date().toISOString()),
    );
  }

  /** Loads a JSON checkpoint. */
  async loadCheckpoint<T = unknown>(threadId: string): Promise<T | undefined> {
    const row = this.handle.guard(
      () =>
        this.handle.prepare('SELECT value FROM checkpoints WHERE thread_id = ?').get(threadId) as
          | { value: string }
          | undefined,
    );
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /** Deletes a checkpoint. */
  async deleteCheckpoint(threadId: string): Promise<void> {
    this.handle.guard(() => this.handle.prepare('DELETE FROM checkpoints WHERE thread_id = ?').run(threadId));
  }

  /** Closes the database. */
  close(): void {
    this.opened.clear();
    this.watcher.close();
    if (this.handle.database.isOpen) this.handle.database.close();
  }
}
