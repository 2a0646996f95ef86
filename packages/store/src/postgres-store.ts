import type { Credentials } from '@patchbay/connector';
import {
  narrowState,
  type ResumeLedger,
  type StatusChange,
  type StoredConnection,
  type SubjectState,
} from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
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
import { type AuditCommit, PostgresAuditLog } from './postgres-audit-log.js';
import type { PostgresHandle } from './postgres-handle.js';
import { PostgresMemoryStore } from './postgres-memory-store.js';
import { PostgresProposalStore } from './postgres-proposal-store.js';
import { PostgresThreadStore } from './postgres-thread-store.js';
import type { PostgresWatcher } from './postgres-watcher.js';
import { PostgresResumeLedger } from './resume-ledger.js';
import { deriveProposalKey, findSecretKey, type ResolvedSecretKey, resolveSecretKey } from './secret-key.js';
import type { StatusCache } from './status-cache.js';
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

/** Where the Postgres store finds its secret key: as for SQLite, explicit, environment or home file. */
export interface PostgresKeySource {
  home: string;
  secretKey: string | Uint8Array | undefined;
  env: NodeJS.ProcessEnv;
  /** Accept a key file that group or others can read (`PATCHBAY_ALLOW_INSECURE_KEY_FILE=1`). */
  allowInsecureKeyFile?: boolean | undefined;
  /** Keys credentials may still be sealed with (a rotation in progress); read lazily. */
  previous: () => KeyringKey[];
}

/**
 * The Postgres implementation of {@link PatchbayStore}: the same tables, encryption, MACs and
 * announcements as SQLite, for many processes and machines on one server. Writes announce
 * themselves through triggers that NOTIFY at commit; `subscribe` LISTENs on one extra connection.
 */
export class PostgresStore implements PatchbayStore {
  readonly proposals: PostgresProposalStore;
  readonly audit: PostgresAuditLog;
  readonly threads: PostgresThreadStore;
  /** Long-term memory (seed 002), sealed and searched as SQLite's. */
  readonly resumeLedger: ResumeLedger;
  readonly memory: PostgresMemoryStore;
  private ring: Keyring | undefined;
  private proposalKey: Buffer | undefined;
  private previousProposalKeys: Buffer[] | undefined;
  /** Credentials already decrypted, by the exact sealed value. */
  private readonly opened = new CredentialCache();
  /** Subject states read while listening, dropped on every announced change (see status-cache.ts). */
  private readonly cache: StatusCache | undefined;
  /** Ends the store's own subscription, which keeps the LISTEN connection the cache relies on. */
  private stopWatching: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly handle: PostgresHandle,
    private readonly keys: PostgresKeySource,
    private readonly watcher: PostgresWatcher,
    options: {
      maxThreadMessageChars?: number | undefined;
      relaxedThreadCommit?: boolean | undefined;
      /** How audit rows are committed (see postgres-audit-log.ts); default batched. */
      auditCommit?: AuditCommit | undefined;
      /** Kept subject states, fed by `watcher`'s hooks; none: every read goes to the database. */
      statusCache?: StatusCache | undefined;
    } = {},
  ) {
    this.cache = options.statusCache;
    this.proposals = new PostgresProposalStore(
      handle,
      () => {
        this.proposalKey ??= deriveProposalKey(this.ring?.current.key ?? this.resolveKey().key);
        return this.proposalKey;
      },
      () => {
        // Once per store: the same buffers every time, so their key objects are made once too.
        this.previousProposalKeys ??= this.keys.previous().map((key) => deriveProposalKey(key.key));
        return this.previousProposalKeys;
      },
    );
    this.resumeLedger = new PostgresResumeLedger(handle);
    this.audit = new PostgresAuditLog(handle, options.auditCommit);
    this.threads = new PostgresThreadStore(
      handle,
      options.maxThreadMessageChars,
      options.relaxedThreadCommit ?? false,
    );
    this.memory = new PostgresMemoryStore(handle, {
      current: () => this.key(),
      all: async () => ringKeys(this.ring ?? (await this.keyring())),
    });
  }

  /** The database URL without its password, and the schema. */
  get location(): string {
    return `${this.handle.location} (schema ${this.handle.schema})`;
  }

  /** Resolves once connected and migrated; rejects with the reason it could not be. */
  async ready(): Promise<this> {
    await this.handle.pool();
    return this;
  }

  private resolveKey(): ResolvedSecretKey {
    return resolveSecretKey(this.keys.home, this.keys.secretKey, this.keys.env, {
      allowInsecureKeyFile: this.keys.allowInsecureKeyFile,
    });
  }

  /**
   * The keys, checked against the value sealed with the first key this database saw (re-sealed by
   * each finished rotation); any key of the ring may open it, as during a rotation it is still the
   * old one. A machine with no key configured joining a database that has one is told to share the
   * key, rather than getting a fresh key file that can decrypt nothing.
   */
  private async keyring(extra: readonly KeyringKey[] = []): Promise<Keyring> {
    if (this.ring && extra.length === 0) return this.ring;
    const read = async () =>
      (
        await this.handle.query<{ value: Uint8Array }>('SELECT value FROM store_meta WHERE key = $1', [
          keyCheckName,
        ])
      ).rows[0];
    let row = await read();
    let ring = this.ring;
    if (!ring) {
      const found = findSecretKey(this.keys.home, this.keys.secretKey, this.keys.env, {
        allowInsecureKeyFile: this.keys.allowInsecureKeyFile,
      });
      if (!found && row) {
        throw new PatchbayError(
          'wrong_secret_key',
          `No secret key is configured on this machine, and ${this.handle.location} already holds credentials sealed with one. Set PATCHBAY_SECRET_KEY to the key the other instances use.`,
        );
      }
      ring = { current: withKeyId(found ?? this.resolveKey()), previous: this.keys.previous() };
    }
    if (!row) {
      await this.handle.query(
        'INSERT INTO store_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
        [keyCheckName, packSealed(seal(ring.current.key, keyCheckPlaintext, keyCheckName))],
      );
      row = (await read())!;
    }
    openWithRing(ringKeys(ring, extra), unpackSealed(row.value), keyCheckName, null);
    this.ring = ring;
    return ring;
  }

  /** The key every write is sealed with. */
  private async key(): Promise<KeyringKey> {
    return (await this.keyring()).current;
  }

  private async decrypt(subject: string, row: ConnectionRow): Promise<Credentials> {
    // The ring once checked stays; reading it again only when it has not been checked yet.
    const ring = this.ring ?? (await this.keyring());
    return openConnection(this.opened, subject, row, () => ringKeys(ring));
  }

  /**
   * Re-encrypts every stored credential under `newKey`, in transactions of `batchSize` rows (locked
   * with `FOR UPDATE SKIP LOCKED`, so two rotations share the work), each row recording the id of
   * the key that sealed it. Interrupted, nothing is lost: committed batches are under the new key,
   * the rest under the old one, reads work with either while both are configured, and a rerun
   * resumes. The key check is re-sealed under the new key last.
   */
  async rotateSecretKey(
    newKey: string | Uint8Array,
    options: RotateSecretKeyOptions = {},
  ): Promise<RotationReport> {
    const target = keyFrom(newKey, 'the new key');
    const batchSize = rotationBatchSize(options);
    const keys = ringKeys(await this.keyring([target]), [target]);
    let rotated = 0;
    for (;;) {
      const count = await this.handle.transaction(async (client) => {
        const { rows } = await client.query<ConnectionRow & { subject: string }>(
          `SELECT subject, connector_id, credentials_ciphertext, credentials_iv, credentials_tag, key_id
           FROM connections WHERE credentials_ciphertext IS NOT NULL AND (key_id IS NULL OR key_id <> $1)
           ORDER BY subject, connector_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [target.id, batchSize],
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
          await client.query(
            `UPDATE connections SET credentials_ciphertext = $1, credentials_iv = $2, credentials_tag = $3, key_id = $4
             WHERE subject = $5 AND connector_id = $6`,
            [sealed.ciphertext, sealed.iv, sealed.tag, target.id, row.subject, row.connector_id],
          );
        }
        return rows.length;
      });
      if (count === 0) break;
      rotated += count;
      await options.afterBatch?.({ rotated });
    }
    // Memory rows are sealed with the same key: re-sealed too (not counted in `rotated`, which
    // counts credentials), before the key check moves, so no row is left that only the old key opens.
    let resealed: number;
    do resealed = await this.memory.resealBatch(target, keys, batchSize);
    while (resealed > 0);
    await this.handle.query(
      'INSERT INTO store_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [keyCheckName, packSealed(seal(target.key, keyCheckPlaintext, keyCheckName))],
    );
    const ring = await this.keyring();
    this.ring = { current: target, previous: ringKeys(ring).filter((key) => key.id !== target.id) };
    // Rows were re-sealed without an announcement; what was kept is read again.
    this.cache?.invalidate(undefined);
    return { keyId: target.id, rotated };
  }

  /** Calls `listener` after every committed change, from any process on this database and schema. */
  subscribe(listener: (change: StatusChange) => void): () => void {
    return this.watcher.subscribe(listener);
  }

  /** Resolves once every subscription so far is listening (a LISTEN in place); at once without one. */
  listening(): Promise<void> {
    return this.watcher.ready();
  }

  /** Connections, admin policy and live rate limits in one statement, so they are one snapshot. */
  async load(subject: string): Promise<SubjectState> {
    return this.readState(subject, undefined);
  }

  /**
   * The same as {@link load} for some connectors only: one statement, and only their credentials
   * are decrypted. The gate's per-call read.
   */
  async loadConnectors(subject: string, connectorIds: readonly string[]): Promise<SubjectState> {
    return this.readState(subject, [...new Set(connectorIds)]);
  }

  private async readState(subject: string, connectorIds: string[] | undefined): Promise<SubjectState> {
    requireName(subject, 'subject');
    if (connectorIds?.length === 0)
      return { connections: [], disabledConnectorIds: [], rateLimitedUntil: {} };
    const now = new Date().toISOString();
    if (this.cache && !this.closed) {
      // The first read starts listening (the pool is up by then); until the LISTEN is in place
      // nothing is kept.
      this.stopWatching ??= this.watcher.subscribe(() => undefined);
      const kept = this.cache.get(subject, now, connectorIds);
      if (kept) return kept;
      // While listening, the gate's per-connector read misses into a whole-subject read (the same
      // one statement) that fills the cache both share, then narrows it: the next gate call, and the
      // MCP agent's admin switch, are answered from memory. Not listening: only what is asked is read.
      if (connectorIds !== undefined && this.cache.listening) {
        return narrowState(await this.readState(subject, undefined), connectorIds);
      }
    }
    // Only a whole subject's state is kept; taken before the read, so a change announced while it
    // is on its way keeps it from being kept.
    const token = connectorIds === undefined ? this.cache?.begin() : undefined;
    const only = connectorIds === undefined ? '' : ' AND connector_id = ANY($4::text[])';
    const { rows } = await this.handle.query<{
      part: string;
      connector_id: string;
      row: ConnectionRow | null;
      until: string | null;
    }>(
      `SELECT 'connection' AS part, connector_id, to_jsonb(connections) AS row, NULL AS until
         FROM connections WHERE subject = $1${only}
       UNION ALL
       SELECT DISTINCT 'disabled', connector_id, NULL::jsonb, NULL FROM admin_policy WHERE subject IN ($1, $2)${only}
       UNION ALL
       SELECT 'limit', connector_id, NULL::jsonb, until FROM rate_limits WHERE subject = $1 AND until > $3${only}
       ORDER BY part, connector_id`,
      connectorIds === undefined ? [subject, everySubject, now] : [subject, everySubject, now, connectorIds],
      // Named: parsed and planned once per connection (two texts, so two names).
      connectorIds === undefined ? 'patchbay_status_load' : 'patchbay_status_connectors',
    );
    const connections: StoredConnection[] = [];
    const disabledConnectorIds: string[] = [];
    const rateLimitedUntil: Record<string, string> = {};
    for (const item of rows) {
      if (item.part === 'disabled') disabledConnectorIds.push(item.connector_id);
      else if (item.part === 'limit') rateLimitedUntil[item.connector_id] = item.until!;
      else {
        const row = fromJsonRow(item.row!);
        const { connectorId, scopes, credentialError, verifiedAt, verifiedOrigin } = summary(row);
        const connection: StoredConnection = {
          connectorId,
          credentials: await this.decrypt(subject, row),
          scopes,
        };
        if (credentialError !== undefined) connection.credentialError = credentialError;
        if (verifiedAt !== undefined) connection.verifiedAt = verifiedAt;
        if (verifiedOrigin !== undefined) connection.verifiedOrigin = verifiedOrigin;
        connections.push(connection);
      }
    }
    const state = { connections, disabledConnectorIds, rateLimitedUntil };
    if (token) this.cache?.put(subject, token, state);
    return state;
  }

  /**
   * Runs a write of this store and then drops what the cache kept of `subject` (of everyone when
   * undefined): a read in this process after the write resolves sees it at once, without waiting
   * for its announcement. Dropped after the write, not before, so no read started meanwhile can
   * keep the old state (its version no longer matches); dropped even when the write failed.
   */
  private async writing<T>(subject: string | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      this.cache?.invalidate(subject);
    }
  }

  /** Records a rate limit until an ISO time (normalised to UTC). */
  async markRateLimited(subject: string, connectorId: string, until: string): Promise<void> {
    requireName(subject, 'subject');
    requireName(connectorId, 'connectorId');
    await this.writing(subject, () =>
      this.handle.query(
        `INSERT INTO rate_limits (subject, connector_id, until) VALUES ($1, $2, $3)
         ON CONFLICT (subject, connector_id) DO UPDATE SET until = excluded.until`,
        [subject, connectorId, normaliseUntil(until)],
        'patchbay_mark_rate_limited',
      ),
    );
  }

  /** Marks an existing connection invalid; without a stored connection there is nothing to mark. */
  async markInvalidCredentials(subject: string, connectorId: string, error: string): Promise<void> {
    await this.writing(subject, () =>
      this.handle.query(
        'UPDATE connections SET credential_error = $1, updated_at = $2 WHERE subject = $3 AND connector_id = $4',
        [error, new Date().toISOString(), subject, connectorId],
        'patchbay_mark_invalid',
      ),
    );
  }

  /** Encrypts and stores a verified connection, clearing its rate limit in the same transaction. */
  async saveConnection(subject: string, connection: SaveConnectionInput): Promise<void> {
    requireName(subject, 'subject');
    requireName(connection.connectorId, 'connectorId');
    const sealing = await this.key();
    const sealed = seal(
      sealing.key,
      JSON.stringify(connection.credentials),
      credentialContext(subject, connection.connectorId),
    );
    const now = new Date().toISOString();
    // Identity is display-only and stored in the clear: one that holds a credential value is dropped.
    const identity = displayIdentity(connection.identity, connection.credentials, connection.secretFields);
    await this.writing(subject, () =>
      this.saveSealed(subject, connection, sealed, sealing.id, identity, now),
    );
  }

  private async saveSealed(
    subject: string,
    connection: SaveConnectionInput,
    sealed: ReturnType<typeof seal>,
    keyId: string,
    identity: string | undefined,
    now: string,
  ): Promise<void> {
    await this.handle.transaction(async (client) => {
      await client.query(
        `INSERT INTO connections (subject, connector_id, credentials_ciphertext, credentials_iv, credentials_tag,
           scopes, identity, credential_error, verified_at, verified_origin, created_at, updated_at, key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $10, $9, $9, $11)
         ON CONFLICT (subject, connector_id) DO UPDATE SET
           credentials_ciphertext = excluded.credentials_ciphertext, credentials_iv = excluded.credentials_iv,
           credentials_tag = excluded.credentials_tag, key_id = excluded.key_id, scopes = excluded.scopes, identity = excluded.identity,
           credential_error = NULL, verified_at = excluded.verified_at,
           verified_origin = excluded.verified_origin, updated_at = excluded.updated_at`,
        [
          subject,
          connection.connectorId,
          sealed.ciphertext,
          sealed.iv,
          sealed.tag,
          JSON.stringify(connection.scopes),
          identity ?? null,
          connection.verifiedAt ?? now,
          now,
          connection.verifiedOrigin ?? null,
          keyId,
        ],
      );
      await client.query('DELETE FROM rate_limits WHERE subject = $1 AND connector_id = $2', [
        subject,
        connection.connectorId,
      ]);
    });
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
    await this.writing(subject, () =>
      this.handle.query(
        `INSERT INTO connections (subject, connector_id, scopes, credential_error, verified_at, created_at, updated_at)
         VALUES ($1, $2, '[]', $3, $4, $5, $5)
         ON CONFLICT (subject, connector_id) DO UPDATE SET
           credential_error = excluded.credential_error, verified_at = excluded.verified_at, updated_at = excluded.updated_at`,
        [subject, connectorId, error, at ?? now, now],
      ),
    );
  }

  /** Connections of a subject, without credentials. */
  async listConnections(subject: string): Promise<ConnectionSummary[]> {
    const { rows } = await this.handle.query<ConnectionRow>(
      'SELECT * FROM connections WHERE subject = $1 ORDER BY connector_id',
      [subject],
    );
    return rows.map(summary);
  }

  /** One connection with decrypted credentials. */
  async getConnection(
    subject: string,
    connectorId: string,
  ): Promise<(ConnectionSummary & { credentials: Credentials }) | undefined> {
    const { rows } = await this.handle.query<ConnectionRow>(
      'SELECT * FROM connections WHERE subject = $1 AND connector_id = $2',
      [subject, connectorId],
    );
    const row = rows[0];
    return row ? { ...summary(row), credentials: await this.decrypt(subject, row) } : undefined;
  }

  /** Deletes a connection and its rate-limit state in one transaction. */
  async deleteConnection(subject: string, connectorId: string): Promise<boolean> {
    return this.writing(subject, () => this.deleteRows(subject, connectorId));
  }

  private deleteRows(subject: string, connectorId: string): Promise<boolean> {
    return this.handle.transaction(async (client) => {
      await client.query('DELETE FROM rate_limits WHERE subject = $1 AND connector_id = $2', [
        subject,
        connectorId,
      ]);
      const result = await client.query('DELETE FROM connections WHERE subject = $1 AND connector_id = $2', [
        subject,
        connectorId,
      ]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  /** Adds a disable rule (idempotent). */
  async disableConnector(connectorId: string, subject?: string): Promise<void> {
    requireName(connectorId, 'connectorId');
    await this.writing(subject, () =>
      this.handle.query(
        'INSERT INTO admin_policy (connector_id, subject, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [connectorId, subject ?? everySubject, new Date().toISOString()],
      ),
    );
  }

  /** Removes a disable rule. */
  async enableConnector(connectorId: string, subject?: string): Promise<boolean> {
    const result = await this.writing(subject, () =>
      this.handle.query('DELETE FROM admin_policy WHERE connector_id = $1 AND subject = $2', [
        connectorId,
        subject ?? everySubject,
      ]),
    );
    return result.rowCount > 0;
  }

  /** Every admin rule, global ones first. */
  async listPolicy(): Promise<PolicyRule[]> {
    const { rows } = await this.handle.query<{ connector_id: string; subject: string; created_at: string }>(
      'SELECT connector_id, subject, created_at FROM admin_policy ORDER BY subject, connector_id',
    );
    return rows.map((row) => {
      const rule: PolicyRule = { connectorId: row.connector_id, createdAt: row.created_at };
      if (row.subject !== everySubject) rule.subject = row.subject;
      return rule;
    });
  }

  /** Deletes a rate-limit row. */
  async clearRateLimit(subject: string, connectorId: string): Promise<void> {
    await this.writing(subject, () =>
      this.handle.query('DELETE FROM rate_limits WHERE subject = $1 AND connector_id = $2', [
        subject,
        connectorId,
      ]),
    );
  }

  /** Saves a JSON checkpoint. */
  async saveCheckpoint(threadId: string, value: unknown): Promise<void> {
    requireName(threadId, 'threadId');
    await this.handle.query(
      `INSERT INTO checkpoints (thread_id, value, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (thread_id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [threadId, checkpointJson(value), new Date().toISOString()],
    );
  }

  /** Loads a JSON checkpoint. */
  async loadCheckpoint<T = unknown>(threadId: string): Promise<T | undefined> {
    const { rows } = await this.handle.query<{ value: string }>(
      'SELECT value FROM checkpoints WHERE thread_id = $1',
      [threadId],
    );
    return rows[0] ? (JSON.parse(rows[0].value) as T) : undefined;
  }

  /** Deletes a checkpoint. */
  async deleteCheckpoint(threadId: string): Promise<void> {
    await this.handle.query('DELETE FROM checkpoints WHERE thread_id = $1', [threadId]);
  }

  /** Stops listening and ends the pool; resolves when every connection is closed. */
  async close(): Promise<void> {
    this.closed = true;
    // Queued audit rows are written before the pool ends (a failed batch is its appends' to report).
    await this.audit.flush();
    this.opened.clear();
    this.cache?.clear();
    // The watcher first: it waits for a listening connection still being opened, and ends it.
    await this.watcher.close();
    this.stopWatching?.();
    await this.handle.close();
  }
}

/** A `connections` row read back from `to_jsonb`: byte columns come as `\x…` hex text. */
function fromJsonRow(row: ConnectionRow): ConnectionRow {
  const bytes = (value: unknown) =>
    typeof value === 'string' ? Buffer.from(value.slice(2), 'hex') : (value as Uint8Array | null);
  return {
    ...row,
    credentials_ciphertext: bytes(row.credentials_ciphertext),
    credentials_iv: bytes(row.credentials_iv),
    credentials_tag: bytes(row.credentials_tag),
  };
}
