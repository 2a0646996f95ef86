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
  openContext,
  openEntry,
  redactEntry,
  sealContext,
  sealEntry,
} from './memory-sealing.js';
import { rankEntries } from './memory-search.js';
import { immediateTransaction } from './sqlite-database.js';
import type { SqliteHandle } from './sqlite-handle.js';

/** The keys of the SQLite store, read synchronously: the one that seals, and every one that opens. */
export interface SqliteMemoryKeys {
  current(): KeyringKey;
  all(): readonly KeyringKey[];
}

type SealedEntryRow = EntryRow & { sealed: Uint8Array | null; key_id: string | null };
type SealedContextRow = ContextRow & { sealed: Uint8Array | null; key_id: string | null; subject?: string };

const sealedEntryColumns = `${entryColumns}, e.sealed, e.key_id`;

/**
 * The {@link MemoryStore} port on the store's SQLite file. Every statement filters by subject, so
 * an id of another subject's vault, memory or entry is as unknown as one that never existed. Entries
 * and contexts are redacted and then sealed with the store's key (memory-sealing.ts); the file holds
 * none of their words.
 */
export class SqliteMemoryStore implements MemoryStore {
  private legacySealed = false;

  constructor(
    private readonly handle: SqliteHandle,
    private readonly keys: SqliteMemoryKeys,
  ) {}

  /**
   * Seals rows written before memory was sealed (schema step 9), once per store: redacted first, as
   * new rows are, so a token stored in clear by an older version is gone, not just encrypted.
   */
  private sealLegacyRows(): void {
    if (this.legacySealed) return;
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        const entries = this.handle
          .prepare(`SELECT ${entryColumns}, e.subject FROM memory_entries e WHERE e.sealed IS NULL`)
          .all() as unknown as (EntryRow & { subject: string })[];
        const contexts = this.handle
          .prepare('SELECT * FROM memory_contexts WHERE sealed IS NULL')
          .all() as unknown as (ContextRow & { subject: string })[];
        if (entries.length === 0 && contexts.length === 0) return;
        const key = this.keys.current();
        const updateEntry = this.handle.prepare(
          'UPDATE memory_entries SET raw_entry = ?, summary = ?, tags = ?, sealed = ?, key_id = ? WHERE id = ?',
        );
        for (const { subject, ...row } of entries) {
          const sealed = sealEntry(key, subject, redactEntry(row));
          const { raw_entry, summary, tags } = clearPlaceholders;
          updateEntry.run(raw_entry, summary, tags, sealed, key.id, row.id);
        }
        const updateContext = this.handle.prepare(
          'UPDATE memory_contexts SET content = ?, sealed = ?, key_id = ? WHERE memory_id = ? AND version = ?',
        );
        for (const row of contexts) {
          const version = Number(row.version);
          const sealed = sealContext(key, row.subject, row.memory_id, version, redactContent(row.content));
          updateContext.run(clearPlaceholders.content, sealed, key.id, row.memory_id, version);
        }
      }),
    );
    this.legacySealed = true;
  }

  private openEntries(subject: string, rows: readonly SealedEntryRow[]): MemoryEntry[] {
    if (rows.length === 0) return [];
    const keys = this.keys.all();
    return rows.map((row) => toEntry(openEntry(keys, subject, row)));
  }

  private openContexts(subject: string, rows: readonly SealedContextRow[]): MemoryContext[] {
    if (rows.length === 0) return [];
    const keys = this.keys.all();
    return rows.map((row) => toContext(openContext(keys, subject, row)));
  }

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
    this.sealLegacyRows();
    const key = this.keys.current();
    const sealed = sealEntry(key, subject, row);
    const { raw_entry, summary, tags } = clearPlaceholders;
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        this.requireMemory(subject, vaultId, memoryId);
        this.handle
          .prepare(
            `INSERT INTO memory_entries (id, subject, vault_id, memory_id, raw_entry, summary, tags, created_at, sealed, key_id)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(row.id, subject, vaultId, memoryId, raw_entry, summary, tags, row.created_at, sealed, key.id);
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
    this.sealLegacyRows();
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
            `SELECT ${sealedEntryColumns} FROM memory_entries e WHERE ${conditions.join(' AND ')}
             ORDER BY e.seq DESC LIMIT ${limit}`,
          )
          .all(...parameters) as unknown as SealedEntryRow[],
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
    this.sealLegacyRows();
    const row = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT ${sealedEntryColumns} FROM memory_entries e
             WHERE e.subject = ? AND e.vault_id = ? AND e.memory_id = ? AND e.id = ?`,
          )
          .get(subject, vaultId, memoryId, entryId) as unknown as SealedEntryRow | undefined,
    );
    return row ? this.openEntries(subject, [row])[0] : undefined;
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
    this.sealLegacyRows();
    const key = this.keys.current();
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
            `INSERT INTO memory_contexts (subject, vault_id, memory_id, version, content, created_at, sealed, key_id)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            subject,
            vaultId,
            memoryId,
            version,
            clearPlaceholders.content,
            createdAt,
            sealContext(key, subject, memoryId, version, stored),
            key.id,
          );
        return { vaultId, memoryId, version, content: stored, createdAt };
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
    this.sealLegacyRows();
    const bounded = clampLimit(limit, 10);
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT vault_id, memory_id, version, content, created_at, sealed, key_id FROM memory_contexts
             WHERE subject = ? AND vault_id = ? AND memory_id = ? ORDER BY version DESC LIMIT ${bounded}`,
          )
          .all(subject, vaultId, memoryId) as unknown as SealedContextRow[],
    );
    return this.openContexts(subject, rows);
  }

  async searchEntries(subject: string, query: MemorySearchQuery): Promise<MemorySearchHit[]> {
    requireText(subject, 'subject');
    const limit = clampLimit(query.topK, defaultSearchLimit);
    this.sealLegacyRows();
    const conditions = ['e.subject = ?'];
    const parameters: string[] = [subject];
    if (query.memoryId !== undefined) {
      conditions.push('e.memory_id = ?');
      parameters.push(query.memoryId);
    }
    // Sealed rows: no index sees their words, so the entries are opened and ranked here, newest first.
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare(
            `SELECT ${sealedEntryColumns} FROM memory_entries e WHERE ${conditions.join(' AND ')} ORDER BY e.seq DESC`,
          )
          .all(...parameters) as unknown as SealedEntryRow[],
    );
    return rankEntries(this.openEntries(subject, rows), query.query, limit);
  }

  /** Deletes one entry for good; false when the subject has no such entry in that memory. */
  async forgetEntry(subject: string, vaultId: string, memoryId: string, entryId: string): Promise<boolean> {
    requireText(subject, 'subject');
    this.requireMemory(subject, vaultId, memoryId);
    const { changes } = this.handle.guard(() =>
      this.handle
        .prepare('DELETE FROM memory_entries WHERE subject = ? AND vault_id = ? AND memory_id = ? AND id = ?')
        .run(subject, vaultId, memoryId, entryId),
    );
    return Number(changes) > 0;
  }

  /** Deletes a memory with every entry and context version it holds; `not_found` when it is not the subject's. */
  async forgetMemory(
    subject: string,
    vaultId: string,
    memoryId: string,
  ): Promise<{ entries: number; contexts: number }> {
    requireText(subject, 'subject');
    return this.handle.guard((database) =>
      immediateTransaction(database, () => {
        this.requireMemory(subject, vaultId, memoryId);
        const scope = 'WHERE subject = ? AND vault_id = ? AND memory_id = ?';
        const entries = this.handle
          .prepare(`DELETE FROM memory_entries ${scope}`)
          .run(subject, vaultId, memoryId);
        const contexts = this.handle
          .prepare(`DELETE FROM memory_contexts ${scope}`)
          .run(subject, vaultId, memoryId);
        this.handle
          .prepare('DELETE FROM memory_memories WHERE subject = ? AND vault_id = ? AND id = ?')
          .run(subject, vaultId, memoryId);
        return { entries: Number(entries.changes), contexts: Number(contexts.changes) };
      }),
    );
  }

  /**
   * Re-seals up to `batchSize` rows not yet sealed with `target` (a key rotation's step, in its own
   * transaction); returns how many it re-sealed, 0 once every memory row is under `target`.
   */
  resealBatch(target: KeyringKey, keys: readonly KeyringKey[], batchSize: number): number {
    this.sealLegacyRows();
    return this.handle.guard((database) =>
      immediateTransaction(database, () => {
        const entries = this.handle
          .prepare(
            `SELECT ${sealedEntryColumns}, e.subject FROM memory_entries e
             WHERE e.sealed IS NOT NULL AND (e.key_id IS NULL OR e.key_id <> ?) LIMIT ?`,
          )
          .all(target.id, batchSize) as unknown as (SealedEntryRow & { subject: string })[];
        const updateEntry = this.handle.prepare(
          'UPDATE memory_entries SET sealed = ?, key_id = ? WHERE id = ?',
        );
        for (const { subject, ...row } of entries) {
          updateEntry.run(sealEntry(target, subject, openEntry(keys, subject, row)), target.id, row.id);
        }
        const contexts = this.handle
          .prepare(
            `SELECT * FROM memory_contexts WHERE sealed IS NOT NULL AND (key_id IS NULL OR key_id <> ?) LIMIT ?`,
          )
          .all(target.id, Math.max(0, batchSize - entries.length)) as unknown as (SealedContextRow & {
          subject: string;
        })[];
        const updateContext = this.handle.prepare(
          'UPDATE memory_contexts SET sealed = ?, key_id = ? WHERE memory_id = ? AND version = ?',
        );
        for (const row of contexts) {
          const version = Number(row.version);
          const { content } = openContext(keys, row.subject, row);
          updateContext.run(
            sealContext(target, row.subject, row.memory_id, version, content),
            target.id,
            row.memory_id,
            version,
          );
        }
        return entries.length + contexts.length;
      }),
    );
  }

  async awaitConsistency(subject: string, _memoryId: string): Promise<void> {
    requireText(subject, 'subject');
    // Every write above commits before it returns: there is never anything to wait for.
  }
}
