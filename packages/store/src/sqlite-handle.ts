import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { storeError } from './sqlite-database.js';

/** How many prepared statements a handle keeps; the store's SQL is a fixed set well below it. */
const statementCacheSize = 256;

/** A database handle plus its path, shared by the store's parts so they map errors alike. */
export class SqliteHandle {
  private readonly statements = new Map<string, StatementSync>();

  constructor(
    readonly database: DatabaseSync,
    readonly path: string,
  ) {}

  /**
   * The prepared statement for `sql`, prepared on first use and kept for the life of the handle
   * (bounded: the least recently used one is dropped past {@link statementCacheSize}). Call it
   * inside {@link guard} so a failure to prepare is mapped like any other.
   */
  prepare(sql: string): StatementSync {
    const cached = this.statements.get(sql);
    if (cached) {
      // Re-inserted, so the map's order is the order of last use.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.database.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > statementCacheSize) {
      const oldest = this.statements.keys().next().value as string;
      this.statements.delete(oldest);
    }
    return statement;
  }

  /** Runs synchronous database work, turning SQLite failures into readable PatchbayErrors. */
  guard<T>(work: (database: DatabaseSync) => T): T {
    try {
      return work(this.database);
    } catch (error) {
      throw storeError(error, this.path);
    }
  }
}
