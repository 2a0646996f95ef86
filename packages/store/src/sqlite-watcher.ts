import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { StatusChange } from '@patchbay/connector/ports';
import { nodeSqlite } from './node-sqlite.js';
import { StatusListeners, toStatusChange } from './status-listeners.js';

/** How often a watcher asks SQLite whether anything was committed; see {@link SqliteWatcher}. */
export const defaultWatchIntervalMs = 20;

/**
 * Watches a SQLite file for the announcements its triggers write to `status_changes` (migration 5).
 *
 * The signal is `PRAGMA data_version` on a connection of the watcher's own: it changes when any
 * other connection, in this process or another, commits. In WAL mode it reads the shared-memory
 * index and touches no page, so a poll costs a few microseconds (see the store README for the
 * measurement) and only a change costs a query. fs.watch on the WAL was the alternative: it also
 * fires on checkpoints and on this process's own writes, is coalesced on macOS and silent on network
 * file systems, so it would need this poll as a fallback anyway.
 */
export class SqliteWatcher {
  private readonly listeners: StatusListeners;
  private database: DatabaseSync | undefined;
  private version: StatementSync | undefined;
  private changes: StatementSync | undefined;
  private lastVersion = -1;
  private lastSeq = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly path: string,
    private readonly intervalMs: number = defaultWatchIntervalMs,
  ) {
    this.listeners = new StatusListeners(
      () => this.start(),
      () => this.stop(),
    );
  }

  /** Adds a listener; the first one starts polling. */
  subscribe(listener: (change: StatusChange) => void): () => void {
    return this.listeners.add(listener);
  }

  private start(): void {
    const database = new (nodeSqlite().DatabaseSync)(this.path, { timeout: 1000 });
    this.database = database;
    this.version = database.prepare('PRAGMA data_version');
    this.changes = database.prepare(
      'SELECT seq, kind, subject, connector_id FROM status_changes WHERE seq > ? ORDER BY seq',
    );
    // Changes committed before the subscription are not news.
    this.lastSeq = Number(
      (database.prepare('SELECT MAX(seq) AS seq FROM status_changes').get()?.seq as number | null) ?? 0,
    );
    this.lastVersion = this.readVersion();
    // Unref'd: a process whose only remaining work is watching may exit.
    this.timer = setInterval(() => this.poll(), this.intervalMs).unref();
  }

  private readVersion(): number {
    return Number(this.version!.get()!.data_version);
  }

  /** Reads new announcements when another connection committed since the last poll. */
  poll(): void {
    if (!this.database) return;
    try {
      const version = this.readVersion();
      if (version === this.lastVersion) return;
      this.lastVersion = version;
      const rows = this.changes!.all(this.lastSeq) as {
        seq: number;
        kind: string;
        subject: string | null;
        connector_id: string | null;
      }[];
      for (const row of rows) {
        this.lastSeq = Number(row.seq);
        const change = toStatusChange(row);
        if (change) this.listeners.emit(change);
      }
    } catch {
      // A busy or briefly unreadable file: the next tick tries again (data_version stays changed).
      this.lastVersion = -1;
    }
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.database?.isOpen) this.database.close();
    this.database = undefined;
  }

  /** Stops polling and closes the watcher's connection. */
  close(): void {
    this.stop();
  }
}
