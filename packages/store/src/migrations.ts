import type { DatabaseSync } from 'node:sqlite';
import { PatchbayError } from '@patchbay/envelope';
import { immediateTransaction } from './sqlite-database.js';

/** One schema change, applied once in order; never edited after release (add a new step instead). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The store's schema as ordered steps. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE store_meta (
        key TEXT PRIMARY KEY,
        value BLOB NOT NULL
      );
      CREATE TABLE connections (
        subject TEXT NOT NULL,
        connector_id TEXT NOT NULL,
        credentials_ciphertext BLOB,
        credentials_iv BLOB,
        credentials_tag BLOB,
        scopes TEXT NOT NULL DEFAULT '[]',
        identity TEXT,
        credential_error TEXT,
        verified_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (subject, connector_id)
      );
      CREATE TABLE admin_policy (
        connector_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (connector_id, subject)
      );
      CREATE TABLE rate_limits (
        subject TEXT NOT NULL,
        connector_id TEXT NOT NULL,
        until TEXT NOT NULL,
        PRIMARY KEY (subject, connector_id)
      );
      CREATE TABLE proposals (
        id TEXT PRIMARY KEY,
        subject TEXT NOT NULL,
        tool TEXT NOT NULL,
        args TEXT NOT NULL,
        args_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        state TEXT NOT NULL,
        decided_at TEXT,
        decided_by TEXT,
        reason TEXT,
        correlation_id TEXT
      );
      CREATE INDEX proposals_by_subject_state ON proposals (subject, state, created_at);
      CREATE TABLE checkpoints (
        thread_id TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE audit (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        entry TEXT NOT NULL
      );
      CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'audit is append-only'); END;
      CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
        BEGIN SELECT RAISE(ABORT, 'audit is append-only'); END;
    `,
  },
  {
    version: 2,
    name: 'proposal_definition_hash',
    sql: 'ALTER TABLE proposals ADD COLUMN definition_hash TEXT;',
  },
  {
    version: 3,
    name: 'threads',
    // One row per message; (thread_id, ordinal) is the total order, and the primary key makes two
    // appends that somehow computed the same position fail instead of interleaving.
    sql: `
      CREATE TABLE threads (
        thread_id TEXT NOT NULL,
        ordinal INTEGER NOT NULL,
        role TEXT NOT NULL,
        sent_at TEXT NOT NULL,
        appended_at TEXT NOT NULL,
        format TEXT NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (thread_id, ordinal)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'proposal_mac',
    // Rows from before have no MAC: the gate refuses them (they need a new proposal), never trusts them.
    sql: `
      ALTER TABLE proposals ADD COLUMN owner TEXT;
      ALTER TABLE proposals ADD COLUMN mac TEXT;
      ALTER TABLE proposals ADD COLUMN approval_mac TEXT;
    `,
  },
  {
    version: 5,
    name: 'connection_verified_origin',
    // NULL for rows from before: readers take them as verified against the connector's default
    // origin (see bindConnectionsToOrigins in @patchbay/connector), so a changed baseUrl still
    // does not receive them.
    sql: 'ALTER TABLE connections ADD COLUMN verified_origin TEXT;',
  },
];

/**
 * Brings the schema up to the newest migration. Runs under `BEGIN IMMEDIATE` and re-reads the
 * applied version inside it, so two processes opening a fresh file apply each step once.
 */
export function migrate(database: DatabaseSync, steps: readonly Migration[] = migrations): number {
  database.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const latest = steps.at(-1)?.version ?? 0;
  const current = () =>
    Number(
      (database.prepare('SELECT MAX(version) AS version FROM schema_migrations').get()?.version ??
        0) as number,
    );
  // Fast path without a write lock: most opens find the schema current.
  if (current() === latest) return latest;
  return immediateTransaction(database, () => {
    const applied = current();
    if (applied > latest) {
      throw new PatchbayError(
        'store_too_new',
        `The database schema is at version ${applied}, newer than this Patchbay knows (${latest}). Upgrade Patchbay.`,
      );
    }
    for (const step of steps) {
      if (step.version <= applied) continue;
      database.exec(step.sql);
      database
        .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
        .run(step.version, step.name, new Date().toISOString());
    }
    return latest;
  });
}
