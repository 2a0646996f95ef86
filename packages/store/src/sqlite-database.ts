import type { DatabaseSync } from 'node:sqlite';
import { PatchbayError } from '@patchbay/envelope';
import { nodeSqlite } from './node-sqlite.js';

const sqliteBusy = 5;
const sqliteLocked = 6;
const sqliteCorrupt = 11;
const sqliteNotADatabase = 26;

/** True for an error thrown by `node:sqlite`. */
function isSqliteError(error: unknown): error is Error & { errcode: number; errstr?: string } {
  return error instanceof Error && typeof (error as { errcode?: unknown }).errcode === 'number';
}

/**
 * Maps a `node:sqlite` failure to a readable `PatchbayError`: `store_locked` when another process
 * held the write lock past the busy timeout, `store_corrupt` when the file is not a sound database,
 * `store_error` otherwise. Errors that already are PatchbayErrors pass through.
 */
export function storeError(error: unknown, path: string): unknown {
  if (PatchbayError.isInstance(error) || !isSqliteError(error)) return error;
  const primary = error.errcode & 0xff;
  if (primary === sqliteBusy || primary === sqliteLocked) {
    return new PatchbayError(
      'store_locked',
      `The Patchbay database ${path} is locked by another process; try again in a moment.`,
      { cause: error },
    );
  }
  if (primary === sqliteCorrupt || primary === sqliteNotADatabase) {
    return new PatchbayError(
      'store_corrupt',
      `The Patchbay database ${path} is damaged or not a database (${error.errstr ?? 'corrupt'}). Move it aside and reconnect, or restore a backup.`,
      { cause: error },
    );
  }
  return new PatchbayError('store_error', `The Patchbay database ${path} failed: ${error.message}`, {
    cause: error,
  });
}

/** True when a SQLite error is a lock conflict worth waiting out. */
export function isBusyError(error: unknown): boolean {
  if (!isSqliteError(error)) return false;
  const primary = error.errcode & 0xff;
  return primary === sqliteBusy || primary === sqliteLocked;
}

/**
 * Retries synchronous work that hit a lock, for the steps where SQLite reports SQLITE_BUSY without
 * consulting the busy handler (switching a fresh file to WAL, WAL recovery while another process
 * opens it). Gives up after `timeoutMs`.
 */
export function retryWhileBusy<T>(work: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt += 1) {
    try {
      return work();
    } catch (error) {
      if (!isBusyError(error) || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, Math.min(5 * 2 ** attempt, 50));
    }
  }
}

/**
 * Opens a SQLite file for shared use by several processes: WAL so readers never block the writer,
 * a busy timeout so writers queue instead of failing, foreign keys on.
 */
export function openDatabase(path: string, busyTimeoutMs: number): DatabaseSync {
  let database: DatabaseSync | undefined;
  try {
    database = new (nodeSqlite().DatabaseSync)(path, {
      timeout: busyTimeoutMs,
      enableForeignKeyConstraints: true,
    });
    const opened = database;
    retryWhileBusy(() => {
      const mode = opened.prepare('PRAGMA journal_mode').get() as { journal_mode?: string } | undefined;
      if (mode?.journal_mode !== 'wal') opened.exec('PRAGMA journal_mode = WAL');
    }, busyTimeoutMs);
    // NORMAL is safe against corruption in WAL mode and avoids an fsync per commit.
    opened.exec('PRAGMA synchronous = NORMAL');
    // Reading the schema proves early that the file is a database, not garbage.
    retryWhileBusy(() => opened.prepare('SELECT count(*) FROM sqlite_schema').get(), busyTimeoutMs);
    return opened;
  } catch (error) {
    try {
      database?.close();
    } catch {
      // Closing a half-opened handle may fail too; the original error is the one to report.
    }
    throw storeError(error, path);
  }
}

/**
 * Runs `work` inside `BEGIN IMMEDIATE`, which takes the write lock up front: a read-then-write
 * transaction can then never fail half-way with SQLITE_BUSY, and compare-and-set stays atomic
 * across processes.
 */
export function immediateTransaction<T>(database: DatabaseSync, work: () => T): T {
  return transaction(database, 'BEGIN IMMEDIATE', work);
}

/** Runs `work` inside a deferred read transaction, so several SELECTs see one snapshot. */
export function readTransaction<T>(database: DatabaseSync, work: () => T): T {
  return transaction(database, 'BEGIN', work);
}

function transaction<T>(database: DatabaseSync, begin: 'BEGIN' | 'BEGIN IMMEDIATE', work: () => T): T {
  database.exec(begin);
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    if (database.isTransaction) database.exec('ROLLBACK');
    throw error;
  }
}
