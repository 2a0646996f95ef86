import type { DatabaseSync } from 'node:sqlite';
import { storeError } from './sqlite-database.js';

/** A database handle plus its path, shared by the store's parts so they map errors alike. */
export class SqliteHandle {
  constructor(
    readonly database: DatabaseSync,
    readonly path: string,
  ) {}

  /** Runs synchronous database work, turning SQLite failures into readable PatchbayErrors. */
  guard<T>(work: (database: DatabaseSync) => T): T {
    try {
      return work(this.database);
    } catch (error) {
      throw storeError(error, this.path);
    }
  }
}
