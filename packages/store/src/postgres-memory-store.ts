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
} from '@patchbay/connector';
import type { PoolClient } from 'pg';
import { searchWords } from './fts-query.js';
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
import { sqlState } from './postgres-database.js';
import type { PostgresHandle } from './postgres-handle.js';

const memoryColumns = 'id, vault_id, title, memory_type, description, created_at';

/** Postgres's unique_violation: the title is taken (the unique index decides, not a prior read). */
function isUniqueViolation(error: unknown): boolean {
  // The handle wraps driver errors in a store_error whose cause carries the SQLSTATE.
  const cause = error instanceof Error ? error.cause : undefined;
  return sqlState(error) === '23505' || sqlState(cause) === '23505';
}

/**
 * The {@link MemoryStore} port on Postgres, for several app instances sharing one memory. The same
 * tables as SQLite; search is Postgres text search instead of FTS5: each entry keeps a generated
 * `tsvector` (summary weighted above the raw text, tags below), indexed with GIN, and a query is
 * its words OR-ed, ranked with `ts_rank` so entries matching more of them come first. Every
 * statement filters by subject, so another subject's ids are as unknown as ids that never existed.
 */
export class PostgresMemoryStore implements MemoryStore {
  constructor(private readonly handle: PostgresHandle) {}

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

  private async requireVault(subject: string, vaultId: string, client?: PoolClient): Promise<void> {
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
    client?: PoolClient,
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
    // One statement: the row goes in only when the memory is the subject's.
    const { rowCount } = await this.handle.query(
      `INSERT INTO memory_entries (id, subject, vault_id, memory_id, raw_entry, summary, tags, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8
       WHERE EXISTS (SELECT 1 FROM memory_memories WHERE subject = $2 AND vault_id = $3 AND id = $4)`,
      [row.id, subject, vaultId, memoryId, row.raw_entry, row.summary, row.tags, row.created_at],
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
    const { rows } = await this.handle.query<EntryRow>(
      `SELECT ${entryColumns} FROM memory_entries e WHERE ${conditions.join(' AND ')}
       ORDER BY e.seq DESC LIMIT $${values.length}`,
      values,
    );
    return rows.map(toEntry);
  }

  async getEntry(
    subject: string,
    vaultId: string,
    memoryId: string,
    entryId: string,
  ): Promise<MemoryEntry | undefined> {
    requireText(subject, 'subject');
    const { rows } = await this.handle.query<EntryRow>(
      `SELECT ${entryColumns} FROM memory_entries e
       WHERE e.subject = $1 AND e.vault_id = $2 AND e.memory_id = $3 AND e.id = $4`,
      [subject, vaultId, memoryId, entryId],
    );
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  async putContext(
    subject: string,
    vaultId: string,
    memoryId: string,
    content: string,
  ): Promise<MemoryContext> {
    requireText(subject, 'subject');
    requireContent(content);
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
        `INSERT INTO memory_contexts (subject, vault_id, memory_id, version, content, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [subject, vaultId, memoryId, version, content, createdAt],
      );
      return { vaultId, memoryId, version, content, createdAt };
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
    const { rows } = await this.handle.query<ContextRow>(
      `SELECT vault_id, memory_id, version, content, created_at FROM memory_contexts
       WHERE subject = $1 AND vault_id = $2 AND memory_id = $3 ORDER BY version DESC LIMIT $4`,
      [subject, vaultId, memoryId, clampLimit(limit, 10)],
    );
    return rows.map(toContext);
  }

  async searchEntries(subject: string, query: MemorySearchQuery): Promise<MemorySearchHit[]> {
    requireText(subject, 'subject');
    const words = searchWords(query.query);
    if (words.length === 0) return [];
    const limit = clampLimit(query.topK, defaultSearchLimit);
    // Each word becomes its own tsquery (plainto_tsquery reads it as text, never as operators),
    // OR-ed together; a word that is only a stop word adds nothing rather than failing the query.
    const values: unknown[] = [subject, ...words];
    const terms = words.map((_, index) => `plainto_tsquery('english', $${index + 2})`).join(' || ');
    const conditions = ['e.subject = $1', 'e.search @@ q.query'];
    if (query.memoryId !== undefined) {
      values.push(query.memoryId);
      conditions.push(`e.memory_id = $${values.length}`);
    }
    values.push(limit);
    const { rows } = await this.handle.query<EntryRow & { rank: number }>(
      `SELECT ${entryColumns}, ts_rank(e.search, q.query) AS rank
       FROM memory_entries e, (SELECT ${terms} AS query) q
       WHERE ${conditions.join(' AND ')} ORDER BY rank DESC, e.seq DESC LIMIT $${values.length}`,
      values,
    );
    return rows.map((row) => ({ entry: toEntry(row), score: Number(row.rank) }));
  }

  async awaitConsistency(subject: string, _memoryId: string): Promise<void> {
    requireText(subject, 'subject');
    // Every write above commits before it returns: there is never anything to wait for.
  }
}
