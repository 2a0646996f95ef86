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
import { ftsQuery } from './fts-query.js';
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
import { immediateTransaction } from './sqlite-database.js';
import type { SqliteHandle } from './sqlite-handle.js';

/**
 * The {@link MemoryStore} port on the store's SQLite file. Every statement filters by subject, so
 * an id of another subject's vault, memory or entry is as unknown as one that never existed.
 */
export class SqliteMemoryStore implements MemoryStore {
  constructor(private readonly handle: SqliteHandle) {}

  async createVault(subject: string, vault: { title: string; description?: string }): Promise<MemoryVault> {
    const row = newVaultRow(subject, vault);
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        const taken = this.handle
          .prepare('SELECT 1 FROM memory_vaults WHERE subject = ? AND title = ?')
          .get(subject, vault.title);
        if (taken) throw titleTaken('vault', vault.title);
        this.handle
          .prepare(
            'INSERT INTO memory_vaults (id, subject, title, description, created_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(row.id, subject, row.title, row.description, row.created_at);
      }),
    );
    return toVault(row);
  }

  async listVaults(subject: string): Promise<MemoryVault[]> {
    requireText(subject, 'subject');
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare(
            'SELECT id, title, description, created_at FROM memory_vaults WHERE subject = ? ORDER BY created_at, id',
          )
          .all(subject) as unknown as VaultRow[],
    );
    return rows.map(toVault);
  }

  async getVault(subject: string, vaultId: string): Promise<MemoryVault | undefined> {
    requireText(subject, 'subject');
    const row = this.handle.guard(
      () =>
        this.handle
          .prepare(
            'SELECT id, title, description, created_at FROM memory_vaults WHERE subject = ? AND id = ?',
          )
          .get(subject, vaultId) as unknown as VaultRow | undefined,
    );
    return row ? toVault(row) : undefined;
  }

  private requireVault(subject: string, vaultId: string): void {
    const found = this.handle.guard(() =>
      this.handle.prepare('SELECT 1 FROM memory_vaults WHERE subject = ? AND id = ?').get(subject, vaultId),
    );
    if (!found) throw vaultNotFound(vaultId);
  }

  private requireMemory(subject: string, vaultId: string, memoryId: string): void {
    const found = this.handle.guard(() =>
      this.handle
        .prepare('SELECT 1 FROM memory_memories WHERE subject = ? AND vault_id = ? AND id = ?')
        .get(subject, vaultId, memoryId),
    );
    if (!found) throw memoryNotFound(vaultId, memoryId);
  }

  async createMemory(
    subject: string,
    vaultId: string,
    memory: { title: string; memoryType: string; description?: string },
  ): Promise<MemoryRecord> {
    const row = newMemoryRow(subject, vaultId, memory);
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        this.requireVault(subject, vaultId);
        const taken = this.handle
          .prepare('SELECT 1 FROM memory_memories WHERE vault_id = ? AND title = ?')
          .get(vaultId, memory.title);
        if (taken) throw titleTaken('memory', memory.title);
        this.handle
          .prepare(
            `INSERT INTO memory_memories (id, subject, vault_id, title, memory_type, description, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(row.id, subject, vaultId, row.title, row.memory_type, row.description, row.created_at);
      }),
    );
    return toMemory(row);
  }

  async listMemories(subject: string, vaultId: string): Promise<MemoryRecord[]> {
    requireText(subject, 'subject');
    this.requireVault(subject, vaultId);
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT id, vault_id, title, memory_type, description, created_at FROM memory_memories
             WHERE subject = ? AND vault_id = ? ORDER BY created_at, id`,
          )
          .all(subject, vaultId) as unknown as MemoryRow[],
    );
    return rows.map(toMemory);
  }

  async getMemory(subject: string, vaultId: string, memoryId: string): Promise<MemoryRecord | undefined> {
    requireText(subject, 'subject');
    const row = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT id, vault_id, title, memory_type, description, created_at FROM memory_memories
             WHERE subject = ? AND vault_id = ? AND id = ?`,
          )
          .get(subject, vaultId, memoryId) as unknown as MemoryRow | undefined,
    );
    return row ? toMemory(row) : undefined;
  }

  async addEntry(
    subject: string,
    vaultId: string,
    memoryId: string,
    entry: NewMemoryEntry,
  ): Promise<MemoryEntry> {
    const row = newEntryRow(subject, vaultId, memoryId, entry);
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        this.requireMemory(subject, vaultId, memoryId);
        this.handle
          .prepare(
            `INSERT INTO memory_entries (id, subject, vault_id, memory_id, raw_entry, summary, tags, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(row.id, subject, vaultId, memoryId, row.raw_entry, row.summary, row.tags, row.created_at);
      }),
    );
    return toEntry(row);
  }

  async listEntries(
    subject: string,
    vaultId: string,
    memoryId: string,
    options: ListEntriesOptions = {},
  ): Promise<MemoryEntry[]> {
    requireText(subject, 'subject');
    this.requireMemory(subject, vaultId, memoryId);
    const limit = clampLimit(options.limit, defaultEntryLimit);
    const conditions = ['e.subject = ?', 'e.vault_id = ?', 'e.memory_id = ?'];
    const parameters: string[] = [subject, vaultId, memoryId];
    if (options.before !== undefined) {
      conditions.push('e.created_at < ?');
      parameters.push(options.before);
    }
    if (options.after !== undefined) {
      conditions.push('e.created_at > ?');
      parameters.push(options.after);
    }
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT ${entryColumns} FROM memory_entries e WHERE ${conditions.join(' AND ')}
             ORDER BY e.seq DESC LIMIT ${limit}`,
          )
          .all(...parameters) as unknown as EntryRow[],
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
    const row = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT ${entryColumns} FROM memory_entries e
             WHERE e.subject = ? AND e.vault_id = ? AND e.memory_id = ? AND e.id = ?`,
          )
          .get(subject, vaultId, memoryId, entryId) as unknown as EntryRow | undefined,
    );
    return row ? toEntry(row) : undefined;
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
    return this.handle.guard((database) =>
      immediateTransaction(database, () => {
        this.requireMemory(subject, vaultId, memoryId);
        // The version is read under the write lock, so two writers never pick the same number.
        const last = this.handle
          .prepare('SELECT MAX(version) AS version FROM memory_contexts WHERE memory_id = ?')
          .get(memoryId) as { version: number | null } | undefined;
        const version = Number(last?.version ?? 0) + 1;
        this.handle
          .prepare(
            `INSERT INTO memory_contexts (subject, vault_id, memory_id, version, content, created_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(subject, vaultId, memoryId, version, content, createdAt);
        return { vaultId, memoryId, version, content, createdAt };
      }),
    );
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
    this.requireMemory(subject, vaultId, memoryId);
    const bounded = clampLimit(limit, 10);
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT vault_id, memory_id, version, content, created_at FROM memory_contexts
             WHERE subject = ? AND vault_id = ? AND memory_id = ? ORDER BY version DESC LIMIT ${bounded}`,
          )
          .all(subject, vaultId, memoryId) as unknown as ContextRow[],
    );
    return rows.map(toContext);
  }

  async searchEntries(subject: string, query: MemorySearchQuery): Promise<MemorySearchHit[]> {
    requireText(subject, 'subject');
    const match = ftsQuery(query.query);
    if (match === undefined) return [];
    const limit = clampLimit(query.topK, defaultSearchLimit);
    const conditions = ['memory_entries_fts MATCH ?', 'e.subject = ?'];
    const parameters: string[] = [match, subject];
    if (query.memoryId !== undefined) {
      conditions.push('e.memory_id = ?');
      parameters.push(query.memoryId);
    }
    // bm25 weights: a hit in the summary counts more than one in the raw text or the tags.
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT ${entryColumns}, bm25(memory_entries_fts, 2.0, 1.0, 0.5) AS rank
             FROM memory_entries_fts JOIN memory_entries e ON e.seq = memory_entries_fts.rowid
             WHERE ${conditions.join(' AND ')} ORDER BY rank LIMIT ${limit}`,
          )
          .all(...parameters) as unknown as (EntryRow & { rank: number })[],
    );
    // bm25 is lower-is-better and negative; the port promises higher-is-better.
    return rows.map((row) => ({ entry: toEntry(row), score: -Number(row.rank) }));
  }

  async awaitConsistency(subject: string, _memoryId: string): Promise<void> {
    requireText(subject, 'subject');
    // Every write above commits before it returns: there is never anything to wait for.
  }
}
