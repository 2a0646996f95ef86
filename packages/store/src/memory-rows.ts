import type { MemoryContext, MemoryEntry, MemoryRecord, MemoryVault } from '@patchbay/connector';
import { PatchbayError } from '@patchbay/envelope';

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
