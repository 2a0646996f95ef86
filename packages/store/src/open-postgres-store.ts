import { resolve } from 'node:path';
import { PatchbayError } from '@patchbay/envelope';
import { defaultHome } from './home.js';
import { previousKeys } from './keyring.js';
import type { AuditCommit } from './postgres-audit-log.js';
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
import { StatusCache } from './status-cache.js';

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
  /**
   * Which commits skip waiting for the server's WAL flush (Postgres "asynchronous commit",
   * `synchronous_commit = off`): `'threads'` (default) thread appends only, `'all'` every write of
   * this store, `'none'` none (every commit as the server is configured, durable by default). An
   * asynchronous commit may be lost if the server or machine crashes in the following fraction of a
   * second (at most three times `wal_writer_delay`), never half-applied or reordered: the same class
   * of guarantee as SQLite's WAL with `synchronous = NORMAL`. See the README's "Durability".
   */
  asyncCommit?: AsyncCommit;
  /**
   * Keep each subject's status (`load`) in this process while its LISTEN connection is up, and drop
   * it on every announced change of the subject and on every write of this store (default true).
   * A read then misses a change another process committed only until its announcement arrives
   * (milliseconds), never longer than 2 s even if the listening connection died unnoticed. False:
   * every `load` and `loadConnectors` reads the database. See the README's "Status cache".
   */
  statusCache?: boolean;
  /** Most subjects whose status the cache keeps (least recently used dropped first); default 4096. */
  statusCacheSize?: number;
  /**
   * How audit rows are committed: `'batched'` (default) appends queue and go out together, one
   * statement per batch, without waiting for the WAL flush (a row still queued when the process dies,
   * or committed in the fraction of a second before a server crash, is lost); `'synchronous'` each
   * append is its own durable commit. Default `PATCHBAY_AUDIT_COMMIT`, else `'batched'`. See the
   * README's "Durability".
   */
  auditCommit?: AuditCommit;
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

/** Which writes of the Postgres store commit without waiting for the WAL flush; see {@link OpenPostgresStoreOptions.asyncCommit}. */
export type AsyncCommit = 'none' | 'threads' | 'all';

const asyncCommitValues: readonly AsyncCommit[] = ['none', 'threads', 'all'];

/** The checked `asyncCommit` option: `'threads'` when unset. */
function resolveAsyncCommit(value: AsyncCommit | undefined): AsyncCommit {
  if (value === undefined) return 'threads';
  if (!asyncCommitValues.includes(value)) {
    throw new PatchbayError(
      'invalid_arguments',
      `asyncCommit must be one of ${asyncCommitValues.map((item) => `"${item}"`).join(', ')}, not ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

const auditCommitValues: readonly AuditCommit[] = ['batched', 'synchronous'];

/** Environment variable naming the audit commit mode when the option is not given. */
export const auditCommitEnv = 'PATCHBAY_AUDIT_COMMIT';

/** The checked `auditCommit` option, else the environment's, else `'batched'`. */
function resolveAuditCommit(value: AuditCommit | undefined, environment: NodeJS.ProcessEnv): AuditCommit {
  const chosen = value ?? (environment[auditCommitEnv] || undefined);
  if (chosen === undefined) return 'batched';
  if (!auditCommitValues.includes(chosen as AuditCommit)) {
    const from = value === undefined ? auditCommitEnv : 'auditCommit';
    throw new PatchbayError(
      'invalid_arguments',
      `${from} must be one of ${auditCommitValues.map((item) => `"${item}"`).join(', ')}, not ${JSON.stringify(chosen)}.`,
    );
  }
  return chosen as AuditCommit;
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
  const asyncCommit = resolveAsyncCommit(options.asyncCommit);
  const auditCommit = resolveAuditCommit(options.auditCommit, environment);
  const config = clientConfig(url, schema, { asyncCommit: asyncCommit === 'all' });
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
  const cache = options.statusCache === false ? undefined : new StatusCache(options.statusCacheSize);
  const watcher = new PostgresWatcher(
    async () => {
      await ready;
      const pg = await loadPg();
      const client = new pg.Client(config);
      await client.connect();
      return client;
    },
    schema,
    cache
      ? {
          announced: (subject) => cache.invalidate(subject),
          listening: (live) => cache.setListening(live),
        }
      : {},
  );
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
    relaxedThreadCommit: asyncCommit === 'threads',
    auditCommit,
    statusCache: cache,
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
