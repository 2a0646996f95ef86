import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { migrate } from './migrations.js';
import { resolveSecretKey } from './secret-key.js';
import { openDatabase, retryWhileBusy } from './sqlite-database.js';
import { SqliteHandle } from './sqlite-handle.js';
import { SqliteStore } from './sqlite-store.js';
import type { PatchbayStore } from './store.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** Patchbay home directory; default `PATCHBAY_HOME` or `~/.patchbay`. */
  home?: string;
  /** Database file; default `<home>/patchbay.db`. */
  path?: string;
  /** 32-byte key (raw, base64 or hex); default `PATCHBAY_SECRET_KEY` or `<home>/secret.key`. */
  secretKey?: string | Uint8Array;
  /** How long a writer waits for another process's lock before `store_locked`; default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * Longest thread message row, in characters of JSON (default 1,000,000). A tool message over it
   * has its results cut with a note of their full size; other messages over it are refused.
   */
  maxThreadMessageChars?: number;
  /** Environment to read `PATCHBAY_HOME` / `PATCHBAY_SECRET_KEY` from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The Patchbay home: `PATCHBAY_HOME` or `~/.patchbay`. */
export function defaultHome(environment: NodeJS.ProcessEnv = process.env): string {
  const fromEnvironment = environment.PATCHBAY_HOME;
  return fromEnvironment ? resolve(fromEnvironment) : join(homedir(), '.patchbay');
}

/**
 * Opens (creating and migrating if needed) the embedded SQLite store. Safe to open from several
 * processes at once. The secret key is resolved lazily, on the first credential read or write.
 */
export function openStore(options: OpenStoreOptions = {}): PatchbayStore {
  const environment = options.env ?? process.env;
  const home = options.home ? resolve(options.home) : defaultHome(environment);
  const path = options.path ? resolve(options.path) : join(home, 'patchbay.db');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const database = openDatabase(path, busyTimeoutMs);
  const handle = new SqliteHandle(database, path);
  try {
    handle.guard((open) => retryWhileBusy(() => migrate(open), busyTimeoutMs));
  } catch (error) {
    database.close();
    throw error;
  }
  return new SqliteStore(handle, () => resolveSecretKey(home, options.secretKey, environment), {
    maxThreadMessageChars: options.maxThreadMessageChars,
  });
}
