import { randomUUID } from 'node:crypto';
import type {
  MemoryContext,
  MemoryEntry,
  MemoryRecord,
  MemoryVault,
  NewMemoryEntry,
} from '@patchbay/connector/ports';
import { PatchbayError, redactString } from '@patchbay/envelope';
import { checkContextSize, checkEntrySize, redactEntry } from './memory-sealing.js';

// Rows and checks shared by the SQLite and Postgres memory stores: the same tables and columns on
// both, so one mapper reads either.

export interface VaultRow {
  id: string;
  title: string;
  description: string | null;
  created_at: string;
}
export interface MemoryRow extends VaultRow {
  vault_id: string;
  memory_type: string;
}
export interface EntryRow {
  id: string;
  vault_id: string;
  memory_id: string;
  raw_entry: string;
  summary: string;
  tags: string;
  created_at: string;
}
export interface ContextRow {
  vault_id: string;
  memory_id: string;
  version: number;
  content: string;
  created_at: string;
}

export const defaultEntryLimit = 25;
export const defaultSearchLimit = 10;
export const maxLimit = 100;

export function requireText(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PatchbayError('invalid_arguments', `${what} must be a non-empty string.`);
  }
}

export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new PatchbayError('invalid_arguments', 'limit must be a whole number of at least 1.');
  }
  return Math.min(limit, maxLimit);
}

function withDescription<T extends object>(value: T, description: string | null): T {
  return description === null ? value : { ...value, description };
}

export const toVault = (row: VaultRow): MemoryVault =>
  withDescription({ id: row.id, title: row.title, createdAt: row.created_at }, row.description);

export const toMemory = (row: MemoryRow): MemoryRecord =>
  withDescription(
    {
      id: row.id,
      vaultId: row.vault_id,
      title: row.title,
      memoryType: row.memory_type,
      createdAt: row.created_at,
    },
    row.description,
  );

export const toEntry = (row: EntryRow): MemoryEntry => ({
  id: row.id,
  vaultId: row.vault_id,
  memoryId: row.memory_id,
  rawEntry: row.raw_entry,
  summary: row.summary,
  tags: JSON.parse(row.tags) as Record<string, string>,
  createdAt: row.created_at,
});

export const toContext = (row: ContextRow): MemoryContext => ({
  vaultId: row.vault_id,
  memoryId: row.memory_id,
  version: Number(row.version),
  content: row.content,
  createdAt: row.created_at,
});

export function tagsOf(tags: Record<string, string> | undefined): string {
  if (tags === undefined) return '{}';
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) {
    throw new PatchbayError('invalid_arguments', 'tags must be an object of strings.');
  }
  const entries = Object.entries(tags).map(([key, value]) => [key, String(value)]);
  return JSON.stringify(Object.fromEntries(entries));
}

/** The columns of an entry as the mappers read them, from the table aliased `e`. */
export const entryColumns = 'e.id, e.vault_id, e.memory_id, e.raw_entry, e.summary, e.tags, e.created_at';

/** A new vault's row, its subject and title checked. */
export function newVaultRow(
  subject: string,
  vault: { title: string; description?: string | undefined },
): VaultRow {
  requireText(subject, 'subject');
  requireText(vault.title, 'title');
  return {
    id: randomUUID(),
    title: vault.title,
    description: vault.description ?? null,
    created_at: new Date().toISOString(),
  };
}

/** A new memory's row in `vaultId`, its subject, title and type checked. */
export function newMemoryRow(
  subject: string,
  vaultId: string,
  memory: { title: string; memoryType: string; description?: string | undefined },
): MemoryRow {
  requireText(subject, 'subject');
  requireText(memory.title, 'title');
  requireText(memory.memoryType, 'memoryType');
  return {
    id: randomUUID(),
    vault_id: vaultId,
    title: memory.title,
    memory_type: memory.memoryType,
    description: memory.description ?? null,
    created_at: new Date().toISOString(),
  };
}

/**
 * A new entry's row: its subject, raw text, summary and sizes checked, its tags as JSON, and every
 * secret removed (the envelope's redaction) before anything can be stored.
 */
export function newEntryRow(
  subject: string,
  vaultId: string,
  memoryId: string,
  entry: NewMemoryEntry,
): EntryRow {
  requireText(subject, 'subject');
  requireText(entry.rawEntry, 'raw_entry');
  requireText(entry.summary, 'summary');
  const tags = tagsOf(entry.tags);
  checkEntrySize({ ...entry, tags: JSON.parse(tags) as Record<string, string> });
  return redactEntry({
    id: randomUUID(),
    vault_id: vaultId,
    memory_id: memoryId,
    raw_entry: entry.rawEntry,
    summary: entry.summary,
    tags,
    created_at: new Date().toISOString(),
  });
}

/** `content` of a context must be a string (it may be empty) within the size bound. */
export function requireContent(content: unknown): asserts content is string {
  if (typeof content !== 'string') throw new PatchbayError('invalid_arguments', 'content must be a string.');
  checkContextSize(content);
}

/** A context's content as it may be stored: secrets removed, like an envelope's text. */
export const redactContent = (content: string): string => redactString(content);

/** The answer for an entry the subject does not have in that memory. */
export const entryNotFound = (entryId: string) =>
  new PatchbayError('not_found', `No entry with id "${entryId}".`);

/** The answer for a vault the subject does not have. */
export const vaultNotFound = (vaultId: string) =>
  new PatchbayError('not_found', `No vault with id "${vaultId}".`);

/** The answer for a memory the subject does not have in that vault. */
export const memoryNotFound = (vaultId: string, memoryId: string) =>
  new PatchbayError('not_found', `No memory with id "${memoryId}" in vault "${vaultId}".`);

/** The answer for a title taken by another vault or memory. */
export const titleTaken = (kind: 'vault' | 'memory', title: string) =>
  new PatchbayError('conflict', `A ${kind} titled "${title}" already exists.`);
