import type { AuditEntry } from '@patchbay/connector/ports';
import type { PostgresHandle } from './postgres-handle.js';
import type { AuditLog, AuditRecord, ReplyAuditRecord } from './store.js';

/**
 * How the Postgres audit log commits: `'batched'` (default) appends queue and go out together, one
 * statement per batch, committed without waiting for the WAL flush; `'synchronous'` one statement per
 * append, committed as the server is configured (durable by default).
 */
export type AuditCommit = 'batched' | 'synchronous';

/** Most rows one batched statement carries; a longer queue goes out in several. */
const maxBatchRows = 500;

/** One queued append and who waits for it. */
interface Pending {
  at: string;
  json: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The audit table on Postgres: rows are only ever inserted. Triggers refuse UPDATE, DELETE and
 * TRUNCATE in the database, and number rows in commit order (postgres-schema.ts).
 *
 * Batched (the default): an append joins a queue; one batch is on its way at a time and every
 * append made meanwhile goes out with the next (group commit), so under load N appends cost one
 * round trip, and none waits for the server's disk. Rows keep this process's append order. What
 * that gives up: a row still queued when the process dies is lost, and a committed batch can be
 * lost if the server crashes within about three `wal_writer_delay`s of the commit (never half a
 * batch, never out of order). `close()` and `list()` write the queue first.
 */
export class PostgresAuditLog implements AuditLog {
  /** True when each append is committed durably before it resolves (`auditCommit: 'synchronous'`). */
  readonly synchronous: boolean;
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;

  constructor(
    private readonly handle: PostgresHandle,
    commit: AuditCommit = 'batched',
  ) {
    this.synchronous = commit === 'synchronous';
  }

  /**
   * Appends one JSON entry. Synchronous: resolves once committed. Batched: resolves once its batch
   * is committed (without the WAL flush); a caller that need not know may skip waiting.
   */
  append(entry: AuditEntry): Promise<void> {
    const at = typeof entry.at === 'string' ? entry.at : new Date().toISOString();
    let json: string;
    try {
      json = JSON.stringify({ ...entry, at });
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.synchronous) {
      return this.handle
        .query('INSERT INTO audit (at, entry) VALUES ($1, $2)', [at, json], 'patchbay_audit_append')
        .then(() => undefined);
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ at, json, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** Writes the queue batch by batch until it is empty; appends made meanwhile join the next batch. */
  private async drain(): Promise<void> {
    // Appends made in the same tick as the first one go out with it.
    await Promise.resolve();
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, maxBatchRows);
        try {
          // One statement: the local setting applies to this statement's own transaction only, so
          // this commit alone skips the WAL flush. WITH ORDINALITY keeps the append order for the
          // numbering trigger.
          await this.handle.query(
            `WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
             INSERT INTO audit (at, entry)
             SELECT item.at, item.entry
               FROM relaxed, unnest($1::text[], $2::text[]) WITH ORDINALITY AS item(at, entry, position)
              ORDER BY item.position`,
            [batch.map((pending) => pending.at), batch.map((pending) => pending.json)],
            'patchbay_audit_batch',
          );
          for (const pending of batch) pending.resolve();
        } catch (error) {
          for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      this.draining = undefined;
    }
  }

  /** Resolves once every append made so far is written (or failed, which its own promise reports). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Appends a `@patchbay/sacp` reply record, tagged `event: 'sacp_reply'`. */
  async write(record: ReplyAuditRecord): Promise<void> {
    const at = typeof record.timestamp === 'string' ? record.timestamp : undefined;
    await this.append({ event: 'sacp_reply', ...(record as Record<string, unknown>), ...(at ? { at } : {}) });
  }

  /** Entries in append order; this process's queued appends are written first, so it reads its own. */
  async list(options: { afterSeq?: number; limit?: number } = {}): Promise<AuditRecord[]> {
    await this.flush();
    const { rows } = await this.handle.query<{ seq: string; at: string; entry: string }>(
      'SELECT seq, at, entry FROM audit WHERE seq > $1 ORDER BY seq LIMIT $2',
      [options.afterSeq ?? 0, options.limit ?? 100],
      'patchbay_audit_list',
    );
    return rows.map((row) => ({ seq: Number(row.seq), at: row.at, entry: JSON.parse(row.entry) }));
  }
}
