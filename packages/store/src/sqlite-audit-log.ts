import type { AuditEntry } from '@patchbay/connector/ports';
import type { SqliteHandle } from './sqlite-handle.js';
import type { AuditLog, AuditRecord, ReplyAuditRecord } from './store.js';

/** The audit table: rows are only ever inserted (triggers refuse UPDATE and DELETE). */
export class SqliteAuditLog implements AuditLog {
  /** A local insert, committed before `append` resolves: always synchronous. */
  readonly synchronous = true;

  constructor(private readonly handle: SqliteHandle) {}

  /** Appends one JSON entry. */
  async append(entry: AuditEntry): Promise<void> {
    const at = typeof entry.at === 'string' ? entry.at : new Date().toISOString();
    this.handle.guard(() =>
      this.handle
        .prepare('INSERT INTO audit (at, entry) VALUES (?, ?)')
        .run(at, JSON.stringify({ ...entry, at })),
    );
  }

  /** Appends a `@patchbay/sacp` reply record, tagged `event: 'sacp_reply'`. */
  async write(record: ReplyAuditRecord): Promise<void> {
    const at = typeof record.timestamp === 'string' ? record.timestamp : undefined;
    await this.append({ event: 'sacp_reply', ...(record as Record<string, unknown>), ...(at ? { at } : {}) });
  }

  /** Entries in append order. */
  async list(options: { afterSeq?: number; limit?: number } = {}): Promise<AuditRecord[]> {
    return this.handle.guard(() => {
      const rows = this.handle
        .prepare('SELECT seq, at, entry FROM audit WHERE seq > ? ORDER BY seq LIMIT ?')
        .all(options.afterSeq ?? 0, options.limit ?? 100) as { seq: number; at: string; entry: string }[];
      return rows.map((row) => ({ seq: Number(row.seq), at: row.at, entry: JSON.parse(row.entry) }));
    });
  }
}
