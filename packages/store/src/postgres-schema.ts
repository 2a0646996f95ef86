import type { Migration } from './migrations.js';

/** The NOTIFY channel every Patchbay schema announces on; the payload names the schema. */
export const statusChannel = 'patchbay_status';

/**
 * The Postgres schema as ordered steps, in one place (the SQLite steps are in migrations.ts). The
 * tables and column names are SQLite's, so the row mappers (store-rows.ts, proposal-rows.ts) serve
 * both; times stay ISO text so what goes in comes back byte for byte. A column added on SQLite is
 * added here as a new step too. Steps run inside one transaction (Postgres DDL is transactional)
 * under an advisory lock, so several processes starting at once apply each step once.
 */
export const postgresMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE store_meta (
        key TEXT PRIMARY KEY,
        value BYTEA NOT NULL
      );
      CREATE TABLE connections (
        subject TEXT NOT NULL,
        connector_id TEXT NOT NULL,
        credentials_ciphertext BYTEA,
        credentials_iv BYTEA,
        credentials_tag BYTEA,
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
        correlation_id TEXT,
        definition_hash TEXT,
        owner TEXT,
        mac TEXT,
        approval_mac TEXT
      );
      CREATE INDEX proposals_by_subject_state ON proposals (subject, state, created_at);
      CREATE TABLE checkpoints (
        thread_id TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE threads (
        thread_id TEXT NOT NULL,
        ordinal INTEGER NOT NULL,
        role TEXT NOT NULL,
        sent_at TEXT NOT NULL,
        appended_at TEXT NOT NULL,
        format TEXT NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (thread_id, ordinal)
      );

      -- The audit log is append-only in the database itself: UPDATE, DELETE and TRUNCATE raise,
      -- whoever runs them (a REVOKE would not bind the table's owner, which the app usually is).
      CREATE SEQUENCE audit_seq;
      CREATE TABLE audit (
        seq BIGINT PRIMARY KEY,
        at TEXT NOT NULL,
        entry TEXT NOT NULL
      );
      CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'audit is append-only' USING ERRCODE = 'insufficient_privilege'; END $$;
      CREATE TRIGGER audit_no_update BEFORE UPDATE OR DELETE ON audit
        FOR EACH ROW EXECUTE FUNCTION audit_append_only();
      CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
        FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
      -- Sequence numbers in commit order: the number is drawn under a lock held to commit, so a
      -- reader paging with afterSeq never passes a row that commits later with a smaller number.
      CREATE FUNCTION audit_number() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_advisory_xact_lock(hashtextextended('patchbay audit ' || TG_TABLE_SCHEMA, 0));
          NEW.seq := nextval(format('%I.audit_seq', TG_TABLE_SCHEMA));
          RETURN NEW;
        END $$;
      CREATE TRIGGER audit_number BEFORE INSERT ON audit FOR EACH ROW EXECUTE FUNCTION audit_number();

      -- Announcements: NOTIFY is sent at commit of the writing transaction, never for a rolled-back
      -- write, and by every writer whatever code it runs. A payload over Postgres's 8000-byte limit
      -- would fail the write, so an oversized subject is left out (readers then refresh everyone).
      CREATE FUNCTION announce_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          item jsonb;
          kind text;
          payload text;
        BEGIN
          -- As JSON, so one function reads every table's columns without naming a missing field.
          IF TG_OP = 'DELETE' THEN item := to_jsonb(OLD); ELSE item := to_jsonb(NEW); END IF;
          kind := CASE TG_TABLE_NAME
            WHEN 'connections' THEN
              CASE WHEN TG_OP <> 'DELETE' AND item->>'credential_error' IS NOT NULL
                THEN 'invalid_credentials' ELSE 'connection' END
            WHEN 'rate_limits' THEN 'rate_limit'
            WHEN 'admin_policy' THEN 'policy'
            ELSE 'proposal' END;
          payload := json_build_object('schema', TG_TABLE_SCHEMA, 'kind', kind,
            'subject', NULLIF(item->>'subject', ''),
            'connector_id', COALESCE(item->>'connector_id', item->>'owner'))::text;
          IF octet_length(payload) > 7900 THEN
            payload := json_build_object('schema', TG_TABLE_SCHEMA, 'kind', kind)::text;
          END IF;
          PERFORM pg_notify('${statusChannel}', payload);
          RETURN NULL;
        END $$;
      CREATE TRIGGER connections_announce AFTER INSERT OR UPDATE OR DELETE ON connections
        FOR EACH ROW EXECUTE FUNCTION announce_status_change();
      CREATE TRIGGER rate_limits_announce AFTER INSERT OR UPDATE OR DELETE ON rate_limits
        FOR EACH ROW EXECUTE FUNCTION announce_status_change();
      CREATE TRIGGER admin_policy_announce AFTER INSERT OR DELETE ON admin_policy
        FOR EACH ROW EXECUTE FUNCTION announce_status_change();
      CREATE TRIGGER proposals_announce_decision AFTER UPDATE OF state ON proposals
        FOR EACH ROW WHEN (NEW.state IN ('approved', 'rejected') AND OLD.state IS DISTINCT FROM NEW.state)
        EXECUTE FUNCTION announce_status_change();
    `,
  },
  {
    version: 2,
    name: 'connection_verified_origin',
    // As SQLite's step 7: NULL for rows from before, read as verified against the connector's
    // default origin, so a changed baseUrl still does not receive them.
    sql: 'ALTER TABLE connections ADD COLUMN verified_origin TEXT;',
  },
  {
    version: 3,
    name: 'memory',
    // SQLite's step 5, with Postgres text search in place of FTS5: a generated, GIN-indexed
    // tsvector per entry, the summary weighted above the raw text and the tags below it.
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
        seq BIGSERIAL PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        subject TEXT NOT NULL,
        vault_id TEXT NOT NULL,
        memory_id TEXT NOT NULL REFERENCES memory_memories (id),
        raw_entry TEXT NOT NULL,
        summary TEXT NOT NULL,
        tags TEXT NOT NULL,
        created_at TEXT NOT NULL,
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', summary), 'A') ||
          setweight(to_tsvector('english', raw_entry), 'B') ||
          setweight(to_tsvector('english', tags), 'C')
        ) STORED
      );
      CREATE INDEX memory_entries_by_memory ON memory_entries (subject, memory_id, seq);
      CREATE INDEX memory_entries_search ON memory_entries USING GIN (search);
      -- Entries are append-only, as on SQLite.
      CREATE FUNCTION memory_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'memory entries are append-only' USING ERRCODE = 'insufficient_privilege'; END $$;
      CREATE TRIGGER memory_entries_no_update BEFORE UPDATE ON memory_entries
        FOR EACH ROW EXECUTE FUNCTION memory_entries_append_only();
      CREATE TABLE memory_contexts (
        subject TEXT NOT NULL,
        vault_id TEXT NOT NULL,
        memory_id TEXT NOT NULL REFERENCES memory_memories (id),
        version INTEGER NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (memory_id, version)
      );
    `,
  },
  {
    version: 4,
    name: 'connection_key_id',
    // As SQLite's step 8: the id of the key that sealed each row, for resumable rotation.
    sql: 'ALTER TABLE connections ADD COLUMN key_id TEXT;',
  },
  {
    version: 5,
    name: 'thread_append_function',
    // A thread append in one round trip instead of four (BEGIN, lock, INSERT, COMMIT): called as
    // one statement, it takes the same advisory lock as before (so writers of either version
    // exclude each other) and then inserts. A VOLATILE function's INSERT takes a fresh snapshot
    // under READ COMMITTED, after the lock was granted, so it sees every append that held the lock
    // before. `relaxed` turns synchronous_commit off for this transaction only (the store's
    // asyncCommit option); the lock and the rows commit together either way.
    sql: `
      CREATE FUNCTION thread_append(lock_schema text, target text, appended text, roles text[],
        sent text[], formats text[], messages text[], relaxed boolean) RETURNS void
      LANGUAGE plpgsql AS $$
        BEGIN
          IF relaxed THEN PERFORM set_config('synchronous_commit', 'off', true); END IF;
          PERFORM pg_advisory_xact_lock(hashtextextended('patchbay thread ' || lock_schema || ' ' || target, 0));
          INSERT INTO threads (thread_id, ordinal, role, sent_at, appended_at, format, message)
          SELECT target, base.next + item.position - 1, item.role, item.sent_at, appended, item.format, item.message
          FROM (SELECT COALESCE(MAX(ordinal), -1) + 1 AS next FROM threads WHERE thread_id = target) AS base,
            unnest(roles, sent, formats, messages) WITH ORDINALITY
              AS item (role, sent_at, format, message, position);
        END $$;
    `,
  },
  {
    version: 6,
    name: 'memory_sealed',
    // As SQLite's step 9: memory rows sealed like credentials (memory-sealing.ts), their clear
    // columns left with placeholders. The generated tsvector held every word in clear, so it goes
    // (its GIN index with it); search ranks opened entries in process (memory-search.ts). Rows from
    // before are sealed by the memory store on first use. An update may re-seal a row (a key
    // rotation) but never move it to another subject, memory or time.
    sql: `
      ALTER TABLE memory_entries DROP COLUMN search;
      DROP TRIGGER memory_entries_no_update ON memory_entries;
      ALTER TABLE memory_entries ADD COLUMN sealed BYTEA, ADD COLUMN key_id TEXT;
      ALTER TABLE memory_contexts ADD COLUMN sealed BYTEA, ADD COLUMN key_id TEXT;
      CREATE OR REPLACE FUNCTION memory_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.id IS DISTINCT FROM OLD.id OR NEW.subject IS DISTINCT FROM OLD.subject
            OR NEW.vault_id IS DISTINCT FROM OLD.vault_id OR NEW.memory_id IS DISTINCT FROM OLD.memory_id
            OR NEW.created_at IS DISTINCT FROM OLD.created_at OR NEW.seq IS DISTINCT FROM OLD.seq
            OR (OLD.sealed IS NOT NULL AND NEW.sealed IS NULL)
            OR ((NEW.raw_entry IS DISTINCT FROM OLD.raw_entry OR NEW.summary IS DISTINCT FROM OLD.summary
                 OR NEW.tags IS DISTINCT FROM OLD.tags)
                AND NOT (OLD.sealed IS NULL AND NEW.sealed IS NOT NULL)) THEN
            RAISE EXCEPTION 'memory entries are append-only' USING ERRCODE = 'insufficient_privilege';
          END IF;
          RETURN NEW;
        END $$;
      CREATE TRIGGER memory_entries_no_move BEFORE UPDATE ON memory_entries
        FOR EACH ROW EXECUTE FUNCTION memory_entries_append_only();
    `,
  },
  {
    version: 7,
    name: 'executed_proposals_drop_approval',
    // As SQLite's step 10: rows executed before executing dropped the approval MAC lose it now.
    sql: "UPDATE proposals SET approval_mac = NULL WHERE state = 'executed';",
  },
  {
    version: 8,
    name: 'proposals_by_tool_state',
    // As SQLite's step 11: a changed tool's open proposals are found by index.
    sql: 'CREATE INDEX proposals_by_tool_state ON proposals (tool, state);',
  },
  {
    version: 9,
    name: 'resume_claims',
    // As SQLite's step 12: the resume ledger, one row per resumed pause.
    sql: 'CREATE TABLE resume_claims (pause_id TEXT PRIMARY KEY, claimed_at TIMESTAMPTZ NOT NULL DEFAULT now());',
  },
];
