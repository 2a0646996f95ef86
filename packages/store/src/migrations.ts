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
    name: 'memory',
    // Seed 002's memory. Every row carries its subject so no query can reach another subject's rows
    // by id alone. Entries are append-only (a trigger refuses updates); contexts keep every version.
    // The FTS5 index is external-content over the entries, filled by a trigger on insert.
    sql: `
      CREATE TABLE memory_vaults (
        id TEXT PRIMARY KEY,
        subject TEXT NOT NULL,
        title TEXT NOT NULL,
        description TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (subject, title)
      );
      CREATE TABLE memory_memories (
        id TEXT PRIMARY KEY,
        subject TEXT NOT NULL,
        vault_id TEXT NOT NULL REFERENCES memory_vaults (id),
        title TEXT NOT NULL,
        memory_type TEXT NOT NULL,
        description TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (vault_id, title)
      );
      CREATE TABLE memory_entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        subject TEXT NOT NULL,
        vault_id TEXT NOT NULL,
        memory_id TEXT NOT NULL REFERENCES memory_memories (id),
        raw_entry TEXT NOT NULL,
        summary TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
      );
      CREATE INDEX memory_entries_by_memory ON memory_entries (subject, memory_id, seq);
      CREATE TRIGGER memory_entries_no_update BEFORE UPDATE ON memory_entries
        BEGIN SELECT RAISE(ABORT, 'memory entries are append-only'); END;
      CREATE VIRTUAL TABLE memory_entries_fts USING fts5 (
        summary, raw_entry, tags,
        content = 'memory_entries', content_rowid = 'seq', tokenize = 'porter unicode61'
      );
      CREATE TRIGGER memory_entries_index AFTER INSERT ON memory_entries BEGIN
        INSERT INTO memory_entries_fts (rowid, summary, raw_entry, tags)
          VALUES (new.seq, new.summary, new.raw_entry, new.tags);
      END;
      CREATE TABLE memory_contexts (
        subject TEXT NOT NULL,
        vault_id TEXT NOT NULL,
        memory_id TEXT NOT NULL REFERENCES memory_memories (id),
        version INTEGER NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (memory_id, version)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 6,
    name: 'status_changes',
    // Announcements for watchers in other processes (see sqlite-watcher.ts): triggers write one row
    // per change in the writing transaction, so every writer announces, whatever code it runs. The
    // newest 10,000 are kept; a watcher further behind than that refreshes on its polling fallback.
    sql: `
      CREATE TABLE status_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        subject TEXT,
        connector_id TEXT
      );
      CREATE TRIGGER status_changes_prune AFTER INSERT ON status_changes
        BEGIN DELETE FROM status_changes WHERE seq <= NEW.seq - 10000; END;
      CREATE TRIGGER connections_announce_insert AFTER INSERT ON connections BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES (
          CASE WHEN NEW.credential_error IS NULL THEN 'connection' ELSE 'invalid_credentials' END,
          NEW.subject, NEW.connector_id);
      END;
      CREATE TRIGGER connections_announce_update AFTER UPDATE ON connections BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES (
          CASE WHEN NEW.credential_error IS NULL THEN 'connection' ELSE 'invalid_credentials' END,
          NEW.subject, NEW.connector_id);
      END;
      CREATE TRIGGER connections_announce_delete AFTER DELETE ON connections BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES ('connection', OLD.subject, OLD.connector_id);
      END;
      CREATE TRIGGER rate_limits_announce_insert AFTER INSERT ON rate_limits BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES ('rate_limit', NEW.subject, NEW.connector_id);
      END;
      CREATE TRIGGER rate_limits_announce_update AFTER UPDATE ON rate_limits BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES ('rate_limit', NEW.subject, NEW.connector_id);
      END;
      CREATE TRIGGER rate_limits_announce_delete AFTER DELETE ON rate_limits BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES ('rate_limit', OLD.subject, OLD.connector_id);
      END;
      CREATE TRIGGER admin_policy_announce_insert AFTER INSERT ON admin_policy BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES ('policy', NULLIF(NEW.subject, ''), NEW.connector_id);
      END;
      CREATE TRIGGER admin_policy_announce_delete AFTER DELETE ON admin_policy BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES ('policy', NULLIF(OLD.subject, ''), OLD.connector_id);
      END;
      CREATE TRIGGER proposals_announce_decision AFTER UPDATE OF state ON proposals
        WHEN NEW.state IN ('approved', 'rejected') AND OLD.state IS NOT NEW.state BEGIN
        INSERT INTO status_changes (kind, subject, connector_id) VALUES ('proposal', NEW.subject, NEW.owner);
      END;
    `,
  },
  {
    version: 7,
    name: 'connection_verified_origin',
    // NULL for rows from before: readers take them as verified against the connector's default
    // origin (see bindConnectionsToOrigins in @patchbay/connector), so a changed baseUrl still
    // does not receive them.
    sql: 'ALTER TABLE connections ADD COLUMN verified_origin TEXT;',
  },
  {
    version: 8,
    name: 'connection_key_id',
    // Which key sealed each row (the key's id, a fingerprint), so a key rotation can resume where
    // it stopped and reads pick the right key. NULL for rows from before: any configured key that
    // authenticates them opens them.
    sql: 'ALTER TABLE connections ADD COLUMN key_id TEXT;',
  },
  {
    version: 9,
    name: 'memory_sealed',
    // Memory rows are sealed like credentials (memory-sealing.ts): the text, summary, tags and
    // context content move into one sealed value with its key id, and the clear columns keep
    // placeholders. The FTS5 index held every word in clear, so it goes; search ranks opened
    // entries in process (memory-search.ts). Rows from before are sealed by the memory store on its
    // first use (it needs the key, which a migration has not). Updates may re-seal a row (a key
    // rotation) but never move it to another subject, memory or time; deletes forget an entry.
    sql: `
      DROP TRIGGER memory_entries_index;
      DROP TABLE memory_entries_fts;
      DROP TRIGGER memory_entries_no_update;
      ALTER TABLE memory_entries ADD COLUMN sealed BLOB;
      ALTER TABLE memory_entries ADD COLUMN key_id TEXT;
      ALTER TABLE memory_contexts ADD COLUMN sealed BLOB;
      ALTER TABLE memory_contexts ADD COLUMN key_id TEXT;
      CREATE TRIGGER memory_entries_no_move BEFORE UPDATE ON memory_entries
        WHEN NEW.id IS NOT OLD.id OR NEW.subject IS NOT OLD.subject OR NEW.vault_id IS NOT OLD.vault_id
          OR NEW.memory_id IS NOT OLD.memory_id OR NEW.created_at IS NOT OLD.created_at
          OR NEW.seq IS NOT OLD.seq OR (OLD.sealed IS NOT NULL AND NEW.sealed IS NULL)
          OR ((NEW.raw_entry IS NOT OLD.raw_entry OR NEW.summary IS NOT OLD.summary OR NEW.tags IS NOT OLD.tags)
            AND NOT (OLD.sealed IS NULL AND NEW.sealed IS NOT NULL))
        BEGIN SELECT RAISE(ABORT, 'memory entries are append-only'); END;
    `,
  },
  {
    version: 10,
    name: 'executed_proposals_drop_approval',
    // Executing a proposal now drops its approval MAC, so a row edited back to approved no longer
    // verifies. Rows executed before kept theirs: drop it, or such a row could still be replayed.
    sql: "UPDATE proposals SET approval_mac = NULL WHERE state = 'executed';",
  },
  {
    version: 11,
    name: 'proposals_by_tool_state',
    // A changed tool definition voids that tool's open proposals: found by this index, not by
    // reading every open proposal of every tool.
    sql: 'CREATE INDEX proposals_by_tool_state ON proposals (tool, state);',
  },
  {
    version: 12,
    name: 'resume_claims',
    // The resume ledger (`store.resumeLedger`): one row per resumed pause, so a paused SACP run
    // resumes once across every process on the file.
    sql: 'CREATE TABLE resume_claims (pause_id TEXT PRIMARY KEY, claimed_at TEXT NOT NULL) WITHOUT ROWID;',
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
