import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { PatchbayError } from '@patchbay/envelope';
import { openDatabase, retryWhileBusy } from './sqlite-database.js';

/**
 * `PRAGMA application_id` of a Patchbay database: "PBAY" in ASCII. It marks the file as ours, so a
 * path pointing at another program's database (or at garbage) is refused instead of migrated into.
 */
export const patchbayApplicationId = 0x50424159;

function corrupt(path: string, why: string): PatchbayError {
  return new PatchbayError(
    'store_corrupt',
    `The Patchbay database ${path} ${why}. Nothing was changed. Move it aside and reconnect, or restore a backup.`,
  );
}

/**
 * Creates a new database at `path` so that no process can ever see it half-made: it is built under
 * a temporary name (mode 0600, stamped with our application id, in WAL mode) and hard-linked into
 * place, which fails if the path exists. Without that, a second process opening the path in the
 * instant after `open()` created it would find a 0-byte file, which must read as damage, not as new.
 */
function createDatabaseFile(path: string, busyTimeoutMs: number): void {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  // Created 0600 before SQLite touches it; SQLite gives the -wal and -shm files the same mode.
  closeSync(openSync(temporary, 'wx', 0o600));
  try {
    chmodSync(temporary, 0o600);
    const database = openDatabase(temporary, busyTimeoutMs);
    try {
      database.exec(`PRAGMA application_id = ${patchbayApplicationId}`);
    } finally {
      database.close();
    }
    try {
      linkSync(temporary, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return; // Another process created it first: use theirs.
      // File systems without hard links: a rename replaces, so it is only tried while nothing is there.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
      if (statIfExists(path) === undefined) renameSync(temporary, path);
    }
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true });
  }
}

function statIfExists(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Checks that an open database is Patchbay's. Our application id: fine. Id 0 with Patchbay's own
 * tables: a database from before the id existed, stamped now. Id 0 and no tables at all: a valid
 * but empty SQLite file, which holds nothing to lose, adopted. Anything else is another program's
 * database and is refused as `store_corrupt` before a single table is created in it.
 */
export function claimDatabase(database: DatabaseSync, path: string, busyTimeoutMs: number): void {
  const read = () =>
    Number((database.prepare('PRAGMA application_id').get() as { application_id: number }).application_id);
  const id = read();
  if (id === patchbayApplicationId) return;
  if (id !== 0) {
    throw corrupt(path, `belongs to another application (application_id 0x${(id >>> 0).toString(16)})`);
  }
  const tables = (
    database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]
  ).map((row) => row.name);
  const ours = tables.includes('schema_migrations') || tables.includes('store_meta');
  if (tables.length > 0 && !ours) {
    throw corrupt(
      path,
      `is another application's SQLite database (tables: ${tables.slice(0, 5).join(', ')})`,
    );
  }
  retryWhileBusy(() => database.exec(`PRAGMA application_id = ${patchbayApplicationId}`), busyTimeoutMs);
}

/**
 * Opens the database file of a store: creates it (0600, atomically) when missing; refuses a 0-byte
 * file, which SQLite would silently treat as a new empty database, losing whatever it replaced;
 * then claims it with {@link claimDatabase}.
 */
export function openStoreDatabase(path: string, busyTimeoutMs: number): DatabaseSync {
  const existing = statIfExists(path);
  if (existing === undefined) createDatabaseFile(path, busyTimeoutMs);
  else if (existing.size === 0) {
    throw corrupt(path, 'is empty (0 bytes): it is not the database it should be');
  }
  const database = openDatabase(path, busyTimeoutMs);
  try {
    claimDatabase(database, path, busyTimeoutMs);
  } catch (error) {
    database.close();
    throw error;
  }
  return database;
}
