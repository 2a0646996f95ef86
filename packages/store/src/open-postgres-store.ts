import { resolve } from 'node:path';
import { defaultHome } from './home.js';
import { previousKeys } from './keyring.js';
import {
  clientConfig,
  loadPg,
  migratePostgres,
  postgresError,
  redactUrl,
  splitSchema,
} from './postgres-database.js';
import { PostgresHandle } from './postgres-handle.js';
import { postgresMigrations } from './postgres-schema.js';
import { PostgresStore } from './postgres-store.js';
import { PostgresWatcher } from './postgres-watcher.js';
import { allowInsecureKeyFileEnv } from './secret-key.js';

/** Options of {@link openPostgresStore}. */
export interface OpenPostgresStoreOptions {
  /** `postgres://user:password@host:port/database`; `?schema=name` picks a schema (default `public`). */
  url: string;
  /** Schema to live in, overriding the URL's `schema` parameter; created if missing. */
  schema?: string;
  /** Where a secret key file is looked for (and created on first use): default `PATCHBAY_HOME` or `~/.patchbay`. */
  home?: string;
  /** 32-byte key (raw, base64 or hex); default `PATCHBAY_SECRET_KEY` or `<home>/secret.key`. Share one key across instances. */
  secretKey?: string | Uint8Array;
  /** Most connections this process opens for queries (one more is opened to LISTEN); default 10. */
  poolSize?: number;
  /** Longest thread message row in characters of JSON (default 1,000,000), as for SQLite. */
  maxThreadMessageChars?: number;
  /**
   * Use a secret key file that group or others can read or write (default false: refused with
   * `insecure_key_file`). `PATCHBAY_ALLOW_INSECURE_KEY_FILE=1` does the same.
   */
  allowInsecureKeyFile?: boolean;
  /**
   * Keys credentials may still be sealed with, while a key rotation runs (raw, base64 or hex);
   * default `PATCHBAY_PREVIOUS_SECRET_KEYS` (comma-separated).
   */
  previousSecretKeys?: readonly (string | Uint8Array)[];
  /** Environment to read `PATCHBAY_HOME` / `PATCHBAY_SECRET_KEY` from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** True for a URL the Postgres store serves (`postgres://` or `postgresql://`). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Creates the Postgres store at once and connects and migrates in the background: the first
 * operation waits for that and fails with its reason. Used by `openStore({ url })`, which must stay
 * synchronous for SQLite's sake; {@link openPostgresStore} awaits readiness instead.
 */
export function createPostgresStore(options: OpenPostgresStoreOptions): PostgresStore {
  const environment = options.env ?? process.env;
  const location = redactUrl(options.url);
  const { url, schema } = splitSchema(options.url, options.schema);
  const config = clientConfig(url, schema);
  const ready = (async () => {
    const pg = await loadPg();
    const pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => undefined);
    try {
      await migratePostgres(pool, schema, postgresMigrations);
      return pool;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw postgresError(error, location);
    }
  })();
  const handle = new PostgresHandle(ready, location, schema);
  const watcher = new PostgresWatcher(async () => {
    await ready;
    const pg = await loadPg();
    const client = new pg.Client(config);
    await client.connect();
    return client;
  }, schema);
  const home = options.home ? resolve(options.home) : defaultHome(environment);
  const allowInsecureKeyFile = options.allowInsecureKeyFile ?? environment[allowInsecureKeyFileEnv] === '1';
  const keys = {
    home,
    secretKey: options.secretKey,
    env: environment,
    allowInsecureKeyFile,
    previous: () => previousKeys(options.previousSecretKeys, environment),
  };
  return new PostgresStore(handle, keys, watcher, {
    maxThreadMessageChars: options.maxThreadMessageChars,
  });
}

/**
 * Opens the Postgres store: connects, applies migrations (safe when several processes start at
 * once) and resolves when it is ready. Needs the optional peer dependency `pg`.
 */
export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<PostgresStore> {
  const store = createPostgresStore(options);
  try {
    return await store.ready();
  } catch (error) {
    await store.close();
    throw error;
  }
}
