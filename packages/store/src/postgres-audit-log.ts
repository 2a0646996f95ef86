import type { AuditEntry } from '@patchbay/connector';
import type { PostgresHandle } from './postgres-handle.js';
import type { AuditLog, AuditRecord, ReplyAuditRecord } from './store.js';

/**
 * The audit table on Postgres: rows are only ever inserted. Triggers refuse UPDATE, DELETE and
 * TRUNCATE in the database, and number rows in commit order (postgres-schema.ts).
 */
export class PostgresAuditLog implements AuditLog {
  constructor(private readonly handle: PostgresHandle) {}

  /** Appends one JSON entry. */
  async append(entry: AuditEntry): Promise<void> {
    const at = typeof entry.at === 'string' ? entry.at : new Date().toISOString();
    await this.handle.query('INSERT INTO audit (at, entry) VALUES ($1, $2)', [
      at,
      JSON.stringify({ ...entry, at }),
    ]);
  }

  /** Appends a `@patchbay/sacp` reply record, tagged `event: 'sacp_reply'`. */
  async write(record: ReplyAuditRecord): Promise<void> {
    const at = typeof record.timestamp === 'string' ? record.timestamp : undefined;
    await this.append({ event: 'sacp_reply', ...(record as Record<string, unknown>), ...(at ? { at } : {}) });
  }

  /** Entries in append order. */
  async list(options: { afterSeq?: number; limit?: number } = {}): Promise<AuditRecord[]> {
    const { rows } = await this.handle.query<{ seq: string; at: string; entry: string }>(
      'SELECT seq, at, entry FROM audit WHERE seq > $1 ORDER BY seq LIMIT $2',
      [options.afterSeq ?? 0, options.limit ?? 100],
    );
    return rows.map((row) => ({ seq: Number(row.seq), at: row.at, entry: JSON.parse(row.entry) }));
  }
}
