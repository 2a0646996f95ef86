import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';

/**
 * The test server: `PATCHBAY_TEST_DATABASE_URL`, else the local one every development machine and
 * CI runs (127.0.0.1:5432, trust authentication, database `test`).
 */
export const postgresUrl =
  process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await probe();
if (unreachable !== undefined && process.env.CI === 'true') {
  // CI has a server: a missing one there is a broken machine, never a reason to skip.
  throw new Error(`CI=true but no PostgreSQL answers at ${postgresUrl}: ${unreachable}`);
}
if (unreachable !== undefined) {
  console.warn(
    `PostgreSQL tests SKIPPED: no server answers at ${postgresUrl} (${unreachable}). Set PATCHBAY_TEST_DATABASE_URL or start one.`,
  );
}

/** `describe` when a server answers, else `describe.skip` (the skipped tests are listed by name). */
export function describePostgres(name: string, body: () => void): void {
  (unreachable === undefined ? describe : describe.skip)(name, body);
}

/** Whether a server answered. */
export const postgresAvailable = unreachable === undefined;

/**
 * A schema of its own for one test or test file (name unique across processes and runs), so tests
 * running in parallel never see each other's rows; `drop` removes it and everything in it.
 */
export function freshSchema(prefix: string): { schema: string; url: string; drop: () => Promise<void> } {
  const schema = `pb_${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  return {
    schema,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs one statement on the test server, outside any store (to inspect or to tamper). */
export async function adminQuery<Row extends pg.QueryResultRow>(
  schema: string,
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}
