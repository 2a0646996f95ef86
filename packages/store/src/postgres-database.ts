import { PatchbayError } from '@patchbay/envelope';
import type { Migration } from './migrations.js';
import type { PgClientConfig, PgModule, PgPool, PgPoolClient } from './pg-types.js';

export type { PgModule } from './pg-types.js';

/** Loads the optional peer dependency `pg`, with an install hint when it is missing. */
export async function loadPg(): Promise<PgModule> {
  try {
    const loaded = (await import('pg')) as unknown as PgModule & { default?: PgModule };
    return loaded.default ?? loaded;
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
    throw new PatchbayError(
      'store_error',
      missing
        ? 'A postgres:// database URL needs the "pg" package: pnpm add pg (it is an optional peer dependency of @patchbay/store).'
        : `The "pg" package failed to load: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** A schema name Patchbay accepts: a plain lower-case identifier, so it never needs quoting. */
const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** The URL without its password, for messages and `store.location`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/**
 * Splits Patchbay's own `schema` query parameter off a database URL (the driver would pass it to
 * the server as an unknown setting) and checks the name.
 */
export function splitSchema(url: string, explicit: string | undefined): { url: string; schema: string } {
  const parsed = new URL(url);
  const fromUrl = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  const schema = explicit ?? fromUrl ?? 'public';
  if (!schemaPattern.test(schema)) {
    throw new PatchbayError(
      'invalid_arguments',
      `The Postgres schema "${schema}" is not a lower-case identifier (letters, digits, underscore).`,
    );
  }
  return { url: parsed.toString(), schema };
}

/**
 * Connection settings for every client of one store: its schema first on the search path, and
 * with `asyncCommit` every commit of the session asynchronous (`synchronous_commit = off`).
 */
export function clientConfig(
  url: string,
  schema: string,
  settings: { asyncCommit?: boolean } = {},
): PgClientConfig {
  const commit = settings.asyncCommit ? ' -c synchronous_commit=off' : '';
  return { connectionString: url, options: `-c search_path=${schema}${commit}` };
}

/** The SQLSTATE of a driver error (`23505` unique_violation, …), or undefined. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Maps a driver failure to a readable PatchbayError that never carries the URL's password:
 * `store_locked` for a lock or serialization timeout, `store_error` otherwise (with the server's
 * message, which holds no secret: parameters are never echoed in it).
 */
export function postgresError(error: unknown, location: string): unknown {
  if (PatchbayError.isInstance(error)) return error;
  const state = sqlState(error);
  const message = error instanceof Error ? error.message : String(error);
  if (state === '55P03' || state === '40001' || state === '40P01') {
    return new PatchbayError('store_locked', `The Patchbay database ${location} is busy: ${message}`, {
      cause: error,
    });
  }
  const reach = state ? '' : ' (is the server running and the URL right?)';
  return new PatchbayError('store_error', `The Patchbay database ${location} failed${reach}: ${message}`, {
    cause: error,
  });
}

/** Runs `work` in one transaction on one pooled client, rolling back on any error. */
export async function withTransaction<T>(
  pool: PgPool,
  work: (client: PgPoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}

/**
 * Brings the schema up to the newest step. Every opener takes the same transaction-scoped advisory
 * lock before reading the applied version, so processes starting at once queue and each step runs
 * once; the lock goes with the transaction, even when a process dies half-way.
 */
export async function migratePostgres(
  pool: PgPool,
  schema: string,
  steps: readonly Migration[],
): Promise<number> {
  const latest = steps.at(-1)?.version ?? 0;
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('patchbay migrate ' || $1, 0))", [
      schema,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT MAX(version) AS version FROM schema_migrations',
    );
    const applied = Number(rows[0]?.version ?? 0);
    if (applied > latest) {
      throw new PatchbayError(
        'store_too_new',
        `The database schema is at version ${applied}, newer than this Patchbay knows (${latest}). Upgrade Patchbay.`,
      );
    }
    for (const step of steps) {
      if (step.version <= applied) continue;
      await client.query(step.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        step.version,
        step.name,
        new Date().toISOString(),
      ]);
    }
    return latest;
  });
}
