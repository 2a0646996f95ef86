/**
 * Long-term memory as seed 002 (and Mycelian's memory server) shapes it: a subject owns vaults, a
 * vault holds memories, a memory holds append-only entries and versioned context snapshots.
 *
 * Every method takes the subject first and sees only that subject's rows: a vault, memory or entry
 * id of another subject answers `not_found`, exactly as an id that does not exist.
 */

/** A named group of memories of one subject. */
export interface MemoryVault {
  /** Opaque id (a UUID). */
  id: string;
  title: string;
  description?: string | undefined;
  /** ISO time of creation. */
  createdAt: string;
}

/** One memory (e.g. one conversation partner or project) inside a vault. */
export interface MemoryRecord {
  /** Opaque id (a UUID). */
  id: string;
  vaultId: string;
  title: string;
  /** What kind of memory it is, e.g. `CHAT`, `NOTES`, `PROJECT`. */
  memoryType: string;
  description?: string | undefined;
  /** ISO time of creation. */
  createdAt: string;
}

/** One append-only entry: a message or note as recorded, with its summary. */
export interface MemoryEntry {
  /** Opaque id (a UUID). */
  id: string;
  vaultId: string;
  memoryId: string;
  /** The full text as recorded. */
  rawEntry: string;
  /** A short recap written when the entry was added. */
  summary: string;
  /** Free metadata, e.g. `{ role: 'user', topic: 'billing' }`. */
  tags: Record<string, string>;
  /** ISO time of creation. */
  createdAt: string;
}

/** One version of a memory's context document. The newest version is the current context. */
export interface MemoryContext {
  vaultId: string;
  memoryId: string;
  /** 1 for the first context written, then one more per write. */
  version: number;
  content: string;
  /** ISO time this version was written. */
  createdAt: string;
}

/** What an entry is created from. */
export interface NewMemoryEntry {
  rawEntry: string;
  summary: string;
  tags?: Record<string, string> | undefined;
}

/** Page of {@link MemoryStore.listEntries}: newest first, optionally before or after a time. */
export interface ListEntriesOptions {
  /** At most this many (default 25, at most 100). */
  limit?: number | undefined;
  /** Only entries created strictly before this ISO time. */
  before?: string | undefined;
  /** Only entries created strictly after this ISO time. */
  after?: string | undefined;
}

/** One ranked hit of {@link MemoryStore.searchEntries}. */
export interface MemorySearchHit {
  entry: MemoryEntry;
  /** Relevance, higher is better (comparable within one result only). */
  score: number;
}

/** A full-text query over one memory (or every memory of the subject when `memoryId` is absent). */
export interface MemorySearchQuery {
  query: string;
  memoryId?: string | undefined;
  /** At most this many hits (default 10, at most 100). */
  topK?: number | undefined;
}

/**
 * Where memory lives: SQLite (FTS5 ranked search) in `@patchbay/store`, or your own database.
 * Entries are never changed once added; contexts are kept as versions, the last write wins.
 */
export interface MemoryStore {
  /** Creates a vault; `conflict` when the subject already has one with this title. */
  createVault(
    subject: string,
    vault: { title: string; description?: string | undefined },
  ): Promise<MemoryVault>;
  /** The subject's vaults, oldest first. */
  listVaults(subject: string): Promise<MemoryVault[]>;
  /** One of the subject's vaults, or undefined. */
  getVault(subject: string, vaultId: string): Promise<MemoryVault | undefined>;
  /** Creates a memory in a vault; `not_found` for a vault the subject lacks, `conflict` for a taken title. */
  createMemory(
    subject: string,
    vaultId: string,
    memory: { title: string; memoryType: string; description?: string | undefined },
  ): Promise<MemoryRecord>;
  /** The memories of one of the subject's vaults, oldest first; `not_found` for an unknown vault. */
  listMemories(subject: string, vaultId: string): Promise<MemoryRecord[]>;
  /** One memory, or undefined (also when it is in another vault or of another subject). */
  getMemory(subject: string, vaultId: string, memoryId: string): Promise<MemoryRecord | undefined>;
  /** Appends an entry; `not_found` when the memory is not the subject's. */
  addEntry(subject: string, vaultId: string, memoryId: string, entry: NewMemoryEntry): Promise<MemoryEntry>;
  /** Entries of a memory, newest first; `not_found` when the memory is not the subject's. */
  listEntries(
    subject: string,
    vaultId: string,
    memoryId: string,
    options?: ListEntriesOptions,
  ): Promise<MemoryEntry[]>;
  /** One entry, or undefined. */
  getEntry(
    subject: string,
    vaultId: string,
    memoryId: string,
    entryId: string,
  ): Promise<MemoryEntry | undefined>;
  /** Writes a new context version; `not_found` when the memory is not the subject's. */
  putContext(subject: string, vaultId: string, memoryId: string, content: string): Promise<MemoryContext>;
  /** The newest context version, or undefined when none was written. */
  getContext(subject: string, vaultId: string, memoryId: string): Promise<MemoryContext | undefined>;
  /** Earlier context versions too, newest first, at most `limit` (default 10). */
  listContexts(subject: string, vaultId: string, memoryId: string, limit?: number): Promise<MemoryContext[]>;
  /** Full-text ranked search over the subject's entries (summary, raw text, tags). */
  searchEntries(subject: string, query: MemorySearchQuery): Promise<MemorySearchHit[]>;
  /** Resolves once every write accepted before the call is readable (immediate for a synchronous store). */
  awaitConsistency(subject: string, memoryId: string): Promise<void>;
}
