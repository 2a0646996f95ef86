import { PatchbayError, redactString } from '@patchbay/envelope';
import { seal } from './credential-cipher.js';
import { type KeyringKey, openWithRing } from './keyring.js';
import type { ContextRow, EntryRow } from './memory-rows.js';
import { packSealed, unpackSealed } from './store-rows.js';

// Memory rows hold what people said, so they get what credentials get: secrets removed before
// anything is written (the envelope's redaction), and what is written sealed with the store's key
// (AES-256-GCM, the row's identity bound as additional data, the sealing key's id beside it).

/** Most characters of an entry's raw text: about 4,000 tokens, a long message; a pasted file is refused. */
export const maxRawEntryChars = 16_000;
/** Most characters of an entry's summary: a recap, not a copy. */
export const maxSummaryChars = 2_000;
/** Most tags of an entry, and most characters of each key and value. */
export const maxTags = 20;
export const maxTagChars = 200;
/**
 * Most characters of a context document: about 2,000 tokens. The context is put in every chat turn's
 * `<memory>` block, so it must stay condensed; a model that appends instead is told so.
 */
export const maxContextChars = 8_000;

/** The bounds memory rows are held to, in characters (tags: a count); `@patchbay/memory`'s tools use the same. */
export const memoryLimits = {
  rawEntryChars: maxRawEntryChars,
  summaryChars: maxSummaryChars,
  tags: maxTags,
  tagChars: maxTagChars,
  contextChars: maxContextChars,
} as const;

/** Where the memory rows' keys come from: the key that seals writes, and every key that may open rows. */
export interface MemoryKeys {
  current(): KeyringKey | Promise<KeyringKey>;
  all(): readonly KeyringKey[] | Promise<readonly KeyringKey[]>;
}

const tooLong = (what: string, length: number, limit: number, advice: string) =>
  new PatchbayError(
    'invalid_arguments',
    `${what} is ${length.toLocaleString('en-US')} characters; the limit is ${limit.toLocaleString('en-US')}. ${advice}`,
  );

/** Refuses an entry over the bounds, with what to do instead. */
export function checkEntrySize(entry: { rawEntry: string; summary: string; tags?: Record<string, string> }) {
  if (entry.rawEntry.length > maxRawEntryChars) {
    throw tooLong(
      'raw_entry',
      entry.rawEntry.length,
      maxRawEntryChars,
      'Store the part worth remembering, or split it into several entries.',
    );
  }
  if (entry.summary.length > maxSummaryChars) {
    throw tooLong('summary', entry.summary.length, maxSummaryChars, 'Write a shorter recap.');
  }
  const tags = Object.entries(entry.tags ?? {});
  if (tags.length > maxTags) {
    throw new PatchbayError(
      'invalid_arguments',
      `An entry takes at most ${maxTags} tags, not ${tags.length}.`,
    );
  }
  for (const [key, value] of tags) {
    if (key.length > maxTagChars || String(value).length > maxTagChars) {
      throw new PatchbayError(
        'invalid_arguments',
        `A tag's key and value are at most ${maxTagChars} characters each ("${key.slice(0, 40)}" is longer).`,
      );
    }
  }
}

/** Refuses a context over the bound, telling the writer to condense rather than append. */
export function checkContextSize(content: string) {
  if (content.length > maxContextChars) {
    throw tooLong(
      'The context',
      content.length,
      maxContextChars,
      'Condense it: keep what a later session must know and drop the rest, instead of appending to it.',
    );
  }
}

/** An entry with every secret removed from its text, summary and tags (keys and values). */
export function redactEntry<T extends { raw_entry: string; summary: string; tags: string }>(row: T): T {
  const tags = JSON.parse(row.tags) as Record<string, string>;
  const redactedTags = Object.fromEntries(
    Object.entries(tags).map(([key, value]) => [redactString(key), redactString(value)]),
  );
  return {
    ...row,
    raw_entry: redactString(row.raw_entry),
    summary: redactString(row.summary),
    tags: JSON.stringify(redactedTags),
  };
}

/** Additional data of an entry: a sealed entry copied to another row, memory or subject does not open. */
export const entryContext = (subject: string, memoryId: string, entryId: string) =>
  `patchbay:memory-entry:${JSON.stringify([subject, memoryId, entryId])}`;

/** Additional data of one context version. */
export const contextContext = (subject: string, memoryId: string, version: number) =>
  `patchbay:memory-context:${JSON.stringify([subject, memoryId, version])}`;

/** An entry's text, summary and tags sealed as one value. */
export function sealEntry(key: KeyringKey, subject: string, row: EntryRow): Buffer {
  const plaintext = JSON.stringify([row.raw_entry, row.summary, row.tags]);
  return packSealed(seal(key.key, plaintext, entryContext(subject, row.memory_id, row.id)));
}

/** The stored row of an entry with its sealed value opened (legacy clear rows as they are). */
export function openEntry(
  keys: readonly KeyringKey[],
  subject: string,
  row: EntryRow & { sealed?: Uint8Array | null; key_id?: string | null },
): EntryRow {
  const { sealed, key_id: keyIdOfRow, ...clear } = row;
  if (sealed === null || sealed === undefined) return clear;
  const [rawEntry, summary, tags] = JSON.parse(
    openWithRing(
      keys,
      unpackSealed(sealed),
      entryContext(subject, row.memory_id, row.id),
      keyIdOfRow ?? null,
    ),
  ) as [string, string, string];
  return { ...clear, raw_entry: rawEntry, summary, tags };
}

/** A context version's content sealed. */
export function sealContext(
  key: KeyringKey,
  subject: string,
  memoryId: string,
  version: number,
  content: string,
) {
  return packSealed(seal(key.key, content, contextContext(subject, memoryId, version)));
}

/** The stored row of a context version with its content opened. */
export function openContext(
  keys: readonly KeyringKey[],
  subject: string,
  row: ContextRow & { sealed?: Uint8Array | null; key_id?: string | null },
): ContextRow {
  const { sealed, key_id: keyIdOfRow, ...clear } = row;
  if (sealed === null || sealed === undefined) return clear;
  const content = openWithRing(
    keys,
    unpackSealed(sealed),
    contextContext(subject, row.memory_id, Number(row.version)),
    keyIdOfRow ?? null,
  );
  return { ...clear, content };
}

/** What a sealed row keeps in its clear columns: nothing of what was said. */
export const clearPlaceholders = { raw_entry: '', summary: '', tags: '{}', content: '' } as const;
