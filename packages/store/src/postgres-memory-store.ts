import type {
  ListEntriesOptions,
  MemoryContext,
  MemoryEntry,
  MemoryRecord,
  MemorySearchHit,
  MemorySearchQuery,
  MemoryStore,
  MemoryVault,
  NewMemoryEntry,
} from '@patchbay/connector/ports';
import type { KeyringKey } from './keyring.js';
import {
  type ContextRow,
  clampLimit,
  defaultEntryLimit,
  defaultSearchLimit,
  type EntryRow,
  entryColumns,
  type MemoryRow,
  memoryNotFound,
  newEntryRow,
  newMemoryRow,
  newVaultRow,
  redactContent,
  requireContent,
  requireText,
  titleTaken,
  toContext,
  toEntry,
  toMemory,
  toVault,
  type VaultRow,
  vaultNotFound,
} from './memory-rows.js';
import {
  clearPlaceholders,
  type MemoryKeys,
  openContext,
  openEntry,
  redactEntry,
  sealContext,
  sealEntry,
} from './memory-sealing.js';
import { rankEntries } from './memory-search.js';
import type { PgPoolClient } from './pg-types.js';
import { sqlState } from './postgres-database.js';
import type { PostgresHandle } from './postgres-handle.js';

const memoryColumns = 'id, vault_id, title, memory_type, description, created_at';
const sealedEntryColumns = `${entryColumns}, e.sealed, e.key_id`;

type SealedEntryRow = EntryRow & { sealed: Uint8Array | null; key_id: string | null };
type SealedContextRow = ContextRow & { sealed: Uint8Array | null; key_id: string | null };

/** Postgres's unique_violation: the title is taken (the unique index decides, not a prior read). */
function isUniqueViolation(error: unknown): boolean {
  // The handle wraps driver errors in a store_error whose cause carries the SQLSTATE.
  const cause = error instanceof Error ? error.cause : undefined;
  return sqlState(error) === '23505' || sqlState(cause) === '23505';
}

/**
 * The {@link MemoryStore} port on Postgres, for several app instances sharing one memory. The same
 * tables as SQLite, entries and contexts redacted and sealed with the store's key as there, and the
 * same in-process ranking (memory-search.ts), since no database index can read sealed words. Every
 * statement filters by subject, so another subject's ids are as unknown as ids that never existed.
 */
export class PostgresMemoryStore implements MemoryStore {
  private legacySealed: Promise<void> | undefined;

  constructor(
    private readonly handle: PostgresHandle,
    private readonly keys: MemoryKeys,
  ) {}

  /** Seals rows written before memory was sealed (schema step 6), once per store, redacted first. */
  private sealLegacyRows(): Promise<void> {
    this.legacySealed ??= this.handle
      .transaction(async (client) => {
        const entries = await client.query<EntryRow & { subject: string }>(
          `SELECT ${entryColumns}, e.subject FROM memory_entries e WHERE e.sealed IS NULL FOR UPDATE`,
        );
        const contexts = await client.query<ContextRow & { subject: string }>(
          'SELECT * FROM memory_contexts WHERE sealed IS NULL FOR UPDATE',
        );
        if (entries.rows.length === 0 && contexts.rows.length === 0) return;
        const key = await this.keys.current();
        const { raw_entry, summary, tags, content } = clearPlaceholders;
        for (const { subject, ...row } of entries.rows) {
          await client.query(
            'UPDATE memory_entries SET raw_entry = $1, summary = $2, tags = $3, sealed = $4, key_id = $5 WHERE id = $6',
            [raw_entry, summary, tags, sealEntry(key, subject, redactEntry(row)), key.id, row.id],
          );
        }
        for (const row of contexts.rows) {
          const version = Number(row.version);
          const sealed = sealContext(key, row.subject, row.memory_id, version, redactContent(row.content));
          await client.query(
            'UPDATE memory_contexts SET content = $1, sealed = $2, key_id = $3 WHERE memory_id = $4 AND version = $5',
            [content, sealed, key.id, row.memory_id, version],
          );
        }
      })
      .catch((error: unknown) => {
        // Tried again by the next call: a failure here must not make memory unusable for good.
        this.legacySealed = undefined;
        throw error;
      });
    return this.legacySealed;
  }

  private async openEntries(subject: string, rows: readonly SealedEntryRow[]): Promise<MemoryEntry[]> {
    if (rows.length === 0) return [];
    const keys = await this.keys.all();
    return rows.map((row) => toEntry(openEntry(keys, subject, row)));
  }

  /** Inserts a row whose title is unique in its scope; the unique index's refusal becomes `taken()`. */
  private async insertTitled(sql: string, values: unknown[], taken: () => Error): Promise<void> {
    try {
      await this.handle.query(sql, values);
    } catch (error) {
      throw isUniqueViolation(error) ? taken() : error;
    }
  }

  async createVault(subject: string, vault: { title: string; description?: string }): Promise<MemoryVault> {
    const row = newVaultRow(subject, vault);
    await this.insertTitled(
      'INSERT INTO memory_vaults (id, subject, title, description, created_at) VALUES ($1, $2, $3, $4, $5)',
      [row.id, subject, row.title, row.description, row.created_at],
      () => titleTaken('vault', vault.title),
    );
    return toVault(row);
  }

  async listVaults(subject: string): Promise<MemoryVault[]> {
    requireText(subject, 'subject');
    const { rows } = await this.handle.query<VaultRow>(
      'SELECT id, title, description, created_at FROM memory_vaults WHERE subject = $1 ORDER BY created_at, id',
      [subject],
    );
    return rows.map(toVault);
  }

  async getVault(subject: string, vaultId: string): Promise<MemoryVault | undefined> {
    requireText(subject, 'subject');
    const { rows } = await this.handle.query<VaultRow>(
      'SELECT id, title, description, created_at FROM memory_vaults WHERE subject = $1 AND id = $2',
      [subject, vaultId],
    );
    return rows[0] ? toVault(rows[0]) : undefined;
  }

  private async requireVault(subject: string, vaultId: string, client?: PgPoolClient): Promise<void> {
    const sql = 'SELECT 1 FROM memory_vaults WHERE subject = $1 AND id = $2';
    const { rowCount } = client
      ? await client.query(sql, [subject, vaultId])
      : await this.handle.query(sql, [subject, vaultId]);
    if (!rowCount) throw vaultNotFound(vaultId);
  }

  /** Checks the memory is the subject's; with `lock`, holds its row until the transaction ends. */
  private async requireMemory(
    subject: string,
    vaultId: string,
    memoryId: string,
    client?: PgPoolClient,
    lock = false,
  ): Promise<void> {
    const sql = `SELECT 1 FROM memory_memories WHERE subject = $1 AND vault_id = $2 AND id = $3${lock ? ' FOR UPDATE' : ''}`;
    const values = [subject, vaultId, memoryId];
    const { rowCount } = client ? await client.query(sql, values) : await this.handle.query(sql, values);
    if (!rowCount) {
      throw memoryNotFound(vaultId, memoryId);
    }
  }

  async createMemory(
    subject: string,
    vaultId: string,
    memory: { title: string; memoryType: string; description?: string },
  ): Promise<MemoryRecord> {
    const row = newMemoryRow(subject, vaultId, memory);
    await this.requireVault(subject, vaultId);
    await this.insertTitled(
      `INSERT INTO memory_memories (id, subject, vault_id, title, memory_type, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, subject, vaultId, row.title, row.memory_type, row.description, row.created_at],
      () => titleTaken('memory', memory.title),
    );
    return toMemory(row);
  }

  async listMemories(subject: string, vaultId: string): Promise<MemoryRecord[]> {
    requireText(subject, 'subject');
    await this.requireVault(subject, vaultId);
    const { rows } = await this.handle.query<MemoryRow>(
      `SELECT ${memoryColumns} FROM memory_memories WHERE subject = $1 AND vault_id = $2 ORDER BY created_at, id`,
      [subject, vaultId],
    );
    return rows.map(toMemory);
  }

  async getMemory(subject: string, vaultId: string, memoryId: string): Promise<MemoryRecord | undefined> {
    requireText(subject, 'subject');
    const { rows } = await this.handle.query<MemoryRow>(
      `SELECT ${memoryColumns} FROM memory_memories WHERE subject = $1 AND vault_id = $2 AND id = $3`,
      [subject, vaultId, memoryId],
    );
    return rows[0] ? toMemory(rows[0]) : undefined;
  }

  async addEntry(
    subject: string,
    vaultId: string,
    memoryId: string,
    entry: NewMemoryEntry,
  ): Promise<MemoryEntry> {
    const row = newEntryRow(subject, vaultId, memoryId, entry);
    await this.sealLegacyRows();
    const key = await this.keys.current();
    const { raw_entry, summary, tags } = clearPlaceholders;
    // One statement: the row goes in only when the memory is the subject's.
    const { rowCount } = await this.handle.query(
      `INSERT INTO memory_entries (id, subject, vault_id, memory_id, raw_entry, summary, tags, created_at, sealed, key_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
       WHERE EXISTS (SELECT 1 FROM memory_memories WHERE subject = $2 AND vault_id = $3 AND id = $4)`,
      [
        row.id,
        subject,
        vaultId,
        memoryId,
        raw_entry,
        summary,
        tags,
        row.created_at,
        sealEntry(key, subject, row),
        key.id,
      ],
    );
    if (!rowCount) {
      throw memoryNotFound(vaultId, memoryId);
    }
    return toEntry(row);
  }

  async listEntries(
    subject: string,
    vaultId: string,
    memoryId: string,
    options: ListEntriesOptions = {},
  ): Promise<MemoryEntry[]> {
    requireText(subject, 'subject');
    await this.requireMemory(subject, vaultId, memoryId);
    await this.sealLegacyRows();
    const limit = clampLimit(options.limit, defaultEntryLimit);
    const values: unknown[] = [subject, vaultId, memoryId];
    const conditions = ['e.subject = $1', 'e.vault_id = $2', 'e.memory_id = $3'];
    if (options.before !== undefined) {
      values.push(options.before);
      conditions.push(`e.created_at < $${values.length}`);
    }
    if (options.after !== undefined) {
      values.push(options.after);
      conditions.push(`e.created_at > $${values.length}`);
    }
    values.push(limit);
    const { rows } = await this.handle.query<SealedEntryRow>(
      `SELECT ${sealedEntryColumns} FROM memory_entries e WHERE ${conditions.join(' AND ')}
       ORDER BY e.seq DESC LIMIT $${values.length}`,
      values,
    );
    return this.openEntries(subject, rows);
  }

  async getEntry(
    subject: string,
    vaultId: string,
    memoryId: string,
    entryId: string,
  ): Promise<MemoryEntry | undefined> {
    requireText(subject, 'subject');
    await this.sealLegacyRows();
    const { rows } = await this.handle.query<SealedEntryRow>(
      `SELECT ${sealedEntryColumns} FROM memory_entries e
       WHERE e.subject = $1 AND e.vault_id = $2 AND e.memory_id = $3 AND e.id = $4`,
      [subject, vaultId, memoryId, entryId],
    );
    return (await this.openEntries(subject, rows))[0];
  }

  async putContext(
    subject: string,
    vaultId: string,
    memoryId: string,
    content: string,
  ): Promise<MemoryContext> {
    requireText(subject, 'subject');
    requireContent(content);
    const stored = redactContent(content);
    await this.sealLegacyRows();
    const key = await this.keys.current();
    const createdAt = new Date().toISOString();
    return this.handle.transaction(async (client) => {
      // The memory's row stays locked to commit: two writers never pick the same version.
      await this.requireMemory(subject, vaultId, memoryId, client, true);
      const last = await client.query<{ version: string | number | null }>(
        'SELECT MAX(version) AS version FROM memory_contexts WHERE memory_id = $1',
        [memoryId],
      );
      const version = Number(last.rows[0]?.version ?? 0) + 1;
      await client.query(
        `INSERT INTO memory_contexts (subject, vault_id, memory_id, version, content, created_at, sealed, key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          subject,
          vaultId,
          memoryId,
          version,
          clearPlaceholders.content,
          createdAt,
          sealContext(key, subject, memoryId, version, stored),
          key.id,
        ],
      );
      return { vaultId, memoryId, version, content: stored, createdAt };
    });
  }

  async getContext(subject: string, vaultId: string, memoryId: string): Promise<MemoryContext | undefined> {
    return (await this.listContexts(subject, vaultId, memoryId, 1))[0];
  }

  async listContexts(
    subject: string,
    vaultId: string,
    memoryId: string,
    limit = 10,
  ): Promise<MemoryContext[]> {
    requireText(subject, 'subject');
    await this.requireMemory(subject, vaultId, memoryId);
    await this.sealLegacyRows();
    const { rows } = await this.handle.query<SealedContextRow>(
      `SELECT vault_id, memory_id, version, content, created_at, sealed, key_id FROM memory_contexts
       WHERE subject = $1 AND vault_id = $2 AND memory_id = $3 ORDER BY version DESC LIMIT $4`,
      [subject, vaultId, memoryId, clampLimit(limit, 10)],
    );
    if (rows.length === 0) return [];
    const keys = await this.keys.all();
    return rows.map((row) => toContext(openContext(keys, subject, row)));
  }

  async searchEntries(subject: string, query: MemorySearchQuery): Promise<MemorySearchHit[]> {
    requireText(subject, 'subject');
    const limit = clampLimit(query.topK, defaultSearchLimit);
    await this.sealLegacyRows();
    const values: unknown[] = [subject];
    const conditions = ['e.subject = $1'];
    if (query.memoryId !== undefined) {
      values.push(query.memoryId);
      conditions.push(`e.memory_id = $${values.length}`);
    }
    // Sealed rows: no index sees their words, so the entries are opened and ranked here, newest first.
    const { rows } = await this.handle.query<SealedEntryRow>(
      `SELECT ${sealedEntryColumns} FROM memory_entries e WHERE ${conditions.join(' AND ')} ORDER BY e.seq DESC`,
      values,
    );
    return rankEntries(await this.openEntries(subject, rows), query.query, limit);
  }

  /** Deletes one entry for good; false when the subject has no such entry in that memory. */
  async forgetEntry(subject: string, vaultId: string, memoryId: string, entryId: string): Promise<boolean> {
    requireText(subject, 'subject');
    await this.requireMemory(subject, vaultId, memoryId);
    const { rowCount } = await this.handle.query(
      'DELETE FROM memory_entries WHERE subject = $1 AND vault_id = $2 AND memory_id = $3 AND id = $4',
      [subject, vaultId, memoryId, entryId],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Deletes a memory with every entry and context version it holds; `not_found` when it is not the subject's. */
  async forgetMemory(
    subject: string,
    vaultId: string,
    memoryId: string,
  ): Promise<{ entries: number; contexts: number }> {
    requireText(subject, 'subject');
    return this.handle.transaction(async (client) => {
      await this.requireMemory(subject, vaultId, memoryId, client, true);
      const scope = 'WHERE subject = $1 AND vault_id = $2 AND memory_id = $3';
      const entries = await client.query(`DELETE FROM memory_entries ${scope}`, [subject, vaultId, memoryId]);
      const contexts = await client.query(`DELETE FROM memory_contexts ${scope}`, [
        subject,
        vaultId,
        memoryId,
      ]);
      await client.query('DELETE FROM memory_memories WHERE subject = $1 AND vault_id = $2 AND id = $3', [
        subject,
        vaultId,
        memoryId,
      ]);
      return { entries: entries.rowCount ?? 0, contexts: contexts.rowCount ?? 0 };
    });
  }

  /**
   * Re-seals up to `batchSize` rows not yet sealed with `target` (a key rotation's step, in its own
   * transaction, rows locked `SKIP LOCKED` so two rotations share the work); 0 once all are done.
   */
  async resealBatch(target: KeyringKey, keys: readonly KeyringKey[], batchSize: number): Promise<number> {
    await this.sealLegacyRows();
    return this.handle.transaction(async (client) => {
      const entries = await client.query<SealedEntryRow & { subject: string }>(
        `SELECT ${sealedEntryColumns}, e.subject FROM memory_entries e
         WHERE e.sealed IS NOT NULL AND (e.key_id IS NULL OR e.key_id <> $1) LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [target.id, batchSize],
      );
      for (const { subject, ...row } of entries.rows) {
        await client.query('UPDATE memory_entries SET sealed = $1, key_id = $2 WHERE id = $3', [
          sealEntry(target, subject, openEntry(keys, subject, row)),
          target.id,
          row.id,
        ]);
      }
      const contexts = await client.query<SealedContextRow & { subject: string }>(
        `SELECT * FROM memory_contexts WHERE sealed IS NOT NULL AND (key_id IS NULL OR key_id <> $1)
         LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [target.id, Math.max(0, batchSize - entries.rows.length)],
      );
      for (const row of contexts.rows) {
        const version = Number(row.version);
        const { content } = openContext(keys, row.subject, row);
        await client.query(
          'UPDATE memory_contexts SET sealed = $1, key_id = $2 WHERE memory_id = $3 AND version = $4',
          [
            sealContext(target, row.subject, row.memory_id, version, content),
            target.id,
            row.memory_id,
            version,
          ],
        );
      }
      return entries.rows.length + contexts.rows.length;
    });
  }

  async awaitConsistency(subject: string, _memoryId: string): Promise<void> {
    requireText(subject, 'subject');
    // Every write above commits before it returns: there is never anything to wait for.
  }
}
