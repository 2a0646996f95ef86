import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { openStoreDatabase } from './database-file.js';
import { databaseLocation } from './database-url.js';
import { defaultHome } from './home.js';
import { previousKeys } from './keyring.js';
import { migrate } from './migrations.js';
import { type AsyncCommit, createPostgresStore } from './open-postgres-store.js';
import type { AuditCommit } from './postgres-audit-log.js';
import { allowInsecureKeyFileEnv, resolveSecretKey } from './secret-key.js';
import { retryWhileBusy } from './sqlite-database.js';
import { SqliteHandle } from './sqlite-handle.js';
import { SqliteStore } from './sqlite-store.js';
import type { PatchbayStore } from './store.js';

export { defaultHome } from './home.js';

/** Environment variable naming the database: a `postgres://` URL, or a SQLite file path or `file:` URL. */
export const databaseUrlEnv = 'PATCHBAY_DATABASE_URL';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /**
   * Which database: a `postgres://` (or `postgresql://`) URL opens the Postgres store (needs the
   * `pg` package), a file path or `file:` URL a SQLite file; any other scheme (`mysql:`, a misspelt
   * `postgress:`) is refused with `invalid_arguments`. Default `PATCHBAY_DATABASE_URL`, else the
   * SQLite file `path` or `<home>/patchbay.db`.
   */
  url?: string;
  /** Patchbay home directory; default `PATCHBAY_HOME` or `~/.patchbay`. */
  home?: string;
  /** SQLite database file; default `<home>/patchbay.db`. */
  path?: string;
  /** 32-byte key (raw, base64 or hex); default `PATCHBAY_SECRET_KEY` or `<home>/secret.key`. */
  secretKey?: string | Uint8Array;
  /** SQLite: how long a writer waits for another process's lock before `store_locked`; default 5000 ms. */
  busyTimeoutMs?: number;
  /** SQLite: how often a subscribed store checks for commits of other connections; default 20 ms. */
  watchIntervalMs?: number;
  /** Postgres: most pooled connections of this process; default 10. */
  poolSize?: number;
  /**
   * Postgres: which commits skip waiting for the WAL flush (`synchronous_commit = off`):
   * `'threads'` (default) thread appends only, `'all'` every write, `'none'` none. SQLite always
   * commits in WAL mode with `synchronous = NORMAL`, the same class of guarantee as `'all'`.
   */
  asyncCommit?: AsyncCommit;
  /**
   * Keep each subject's status between reads (default true); false reads the database on every
   * `load`. Postgres: kept while listening for changes, dropped on every announced change and every
   * own write. SQLite: dropped for the subjects the announcements committed since the last read name,
   * checked on every read (one lookup of the newest announcement), so no committed change is missed.
   */
  statusCache?: boolean;
  /** Most subjects whose status the cache keeps (least recently used dropped first); default 4096. */
  statusCacheSize?: number;
  /**
   * Postgres: `'batched'` (default; `PATCHBAY_AUDIT_COMMIT`) audit rows go out together without
   * waiting for the WAL flush; `'synchronous'` each append is its own durable commit. SQLite's
   * audit appends are always synchronous.
   */
  auditCommit?: AuditCommit;
  /**
   * Longest thread message row, in characters of JSON (default 1,000,000). A tool message over it
   * has its results cut with a note of their full size; other messages over it are refused.
   */
  maxThreadMessageChars?: number;
  /**
   * Use a secret key file that group or others can read or write (default false: refused with
   * `insecure_key_file`, as ssh refuses such a private key). `PATCHBAY_ALLOW_INSECURE_KEY_FILE=1` does the same.
   */
  allowInsecureKeyFile?: boolean;
  /**
   * Keys credentials may still be sealed with, while a key rotation runs (raw, base64 or hex);
   * default `PATCHBAY_PREVIOUS_SECRET_KEYS` (comma-separated). Writes always use the secret key.
   */
  previousSecretKeys?: readonly (string | Uint8Array)[];
  /** Environment to read `PATCHBAY_HOME` / `PATCHBAY_SECRET_KEY` / `PATCHBAY_DATABASE_URL` from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Opens the store: SQLite by default (created and migrated at once, safe to open from several
 * processes), or Postgres for a `postgres://` URL (connected and migrated in the background; the
 * first operation waits for it and reports its failure). A new SQLite file is created 0600 in a
 * 0700 directory and marked with Patchbay's `application_id`; a 0-byte file, another program's
 * database or a file that is not SQLite is `store_corrupt`, never replaced by a new empty store.
 * The secret key is resolved lazily, on the
 * first credential read or write.
 */
export function openStore(options: OpenStoreOptions = {}): PatchbayStore {
  const environment = options.env ?? process.env;
  const home = options.home ? resolve(options.home) : defaultHome(environment);
  const fromEnvironment = options.url === undefined && !options.path;
  const url = options.url ?? (fromEnvironment ? environment[databaseUrlEnv] || undefined : undefined);
  const location =
    url === undefined
      ? undefined
      : databaseLocation(url, fromEnvironment ? `The database URL in ${databaseUrlEnv}` : 'The database URL');
  if (location?.kind === 'postgres') {
    return createPostgresStore({
      url: location.url,
      home,
      env: environment,
      ...(options.secretKey !== undefined ? { secretKey: options.secretKey } : {}),
      ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}),
      ...(options.asyncCommit !== undefined ? { asyncCommit: options.asyncCommit } : {}),
      ...(options.statusCache !== undefined ? { statusCache: options.statusCache } : {}),
      ...(options.statusCacheSize !== undefined ? { statusCacheSize: options.statusCacheSize } : {}),
      ...(options.auditCommit !== undefined ? { auditCommit: options.auditCommit } : {}),
      ...(options.allowInsecureKeyFile !== undefined
        ? { allowInsecureKeyFile: options.allowInsecureKeyFile }
        : {}),
      ...(options.previousSecretKeys !== undefined ? { previousSecretKeys: options.previousSecretKeys } : {}),
      ...(options.maxThreadMessageChars !== undefined
        ? { maxThreadMessageChars: options.maxThreadMessageChars }
        : {}),
    });
  }
  const path = resolve(location?.path ?? options.path ?? join(home, 'patchbay.db'));
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const database = openStoreDatabase(path, busyTimeoutMs);
  const handle = new SqliteHandle(database, path);
  try {
    handle.guard((open) => retryWhileBusy(() => migrate(open), busyTimeoutMs));
  } catch (error) {
    database.close();
    throw error;
  }
  const allowInsecureKeyFile = options.allowInsecureKeyFile ?? environment[allowInsecureKeyFileEnv] === '1';
  const resolveKey = () => resolveSecretKey(home, options.secretKey, environment, { allowInsecureKeyFile });
  return new SqliteStore(handle, resolveKey, {
    maxThreadMessageChars: options.maxThreadMessageChars,
    watchIntervalMs: options.watchIntervalMs,
    previousKeys: () => previousKeys(options.previousSecretKeys, environment),
    statusCache: options.statusCache,
    statusCacheSize: options.statusCacheSize,
  });
}
