import type { PgPool, PgPoolClient, PgRow } from './pg-types.js';
import { postgresError, withTransaction } from './postgres-database.js';

/**
 * A pool that is still connecting and migrating, shared by the store's parts. Every query waits
 * for it and maps driver failures to PatchbayErrors that never show the URL's password.
 */
export class PostgresHandle {
  constructor(
    private readonly ready: Promise<PgPool>,
    /** The URL without its password. */
    readonly location: string,
    /** The schema this store lives in (also the search path of every client). */
    readonly schema: string,
  ) {
    // A failed open is reported by the first operation that awaits it, not as an unhandled rejection.
    ready.catch(() => undefined);
  }

  /** The pool once connected and migrated. */
  async pool(): Promise<PgPool> {
    try {
      return await this.ready;
    } catch (error) {
      throw postgresError(error, this.location);
    }
  }

  /**
   * One statement on any pooled client. With `name` it is a named prepared statement: each pooled
   * connection parses and plans it once, and later calls only bind and execute (for the hot path's
   * few fixed statements; one name, one text).
   */
  async query<Row extends PgRow>(
    sql: string,
    values: unknown[] = [],
    name?: string,
  ): Promise<{ rows: Row[]; rowCount: number }> {
    const pool = await this.pool();
    try {
      const result = await pool.query<Row>(
        name === undefined ? { text: sql, values } : { name, text: sql, values },
      );
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw postgresError(error, this.location);
    }
  }

  /** Several statements in one transaction on one client. */
  async transaction<T>(work: (client: PgPoolClient) => Promise<T>): Promise<T> {
    const pool = await this.pool();
    try {
      return await withTransaction(pool, work);
    } catch (error) {
      throw postgresError(error, this.location);
    }
  }

  /** Ends every pooled connection once the pool is up (or at once when it never came up). */
  async close(): Promise<void> {
    const pool = await this.ready.catch(() => undefined);
    await pool?.end().catch(() => undefined);
  }
}
