import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { openStoreDatabase } from './database-file.js';
import { migrate } from './migrations.js';
import { allowInsecureKeyFileEnv, resolveSecretKey } from './secret-key.js';
import { retryWhileBusy } from './sqlite-database.js';
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
  /**
   * Use a secret key file that group or others can read or write (default false: refused with
   * `insecure_key_file`, as ssh refuses such a private key). `PATCHBAY_ALLOW_INSECURE_KEY_FILE=1` does the same.
   */
  allowInsecureKeyFile?: boolean;
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
 * processes at once. A new file is created 0600 in a 0700 directory and marked with Patchbay's
 * `application_id`; a 0-byte file, another program's database or a file that is not SQLite is
 * `store_corrupt`, never replaced by a new empty store. The secret key is resolved lazily, on the
 * first credential read or write.
 */
export function openStore(options: OpenStoreOptions = {}): PatchbayStore {
  const environment = options.env ?? process.env;
  const home = options.home ? resolve(options.home) : defaultHome(environment);
  const path = options.path ? resolve(options.path) : join(home, 'patchbay.db');
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
  });
}
