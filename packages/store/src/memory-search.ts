import type { MemoryEntry, MemorySearchHit } from '@patchbay/connector/ports';
import { searchWords } from './fts-query.js';

// Entries are sealed, so no database index can see their words: search opens the subject's entries
// in process and ranks them here, with BM25 over the same three fields FTS5 and Postgres weighed
// (summary above raw text above tags). The cost grows with the entries searched (one memory's, or
// the subject's), which is the price of a database file that holds no word of what was said.

const fieldWeights = { summary: 2, raw: 1, tags: 0.5 } as const;
const k1 = 1.2;
const b = 0.75;

// Longest first. A light stemmer, so "migrating", "migration" and "migrations" meet as FTS5's porter
// and Postgres's english configuration made them; a stem keeps at least three characters.
const suffixes = ['ions', 'ings', 'ion', 'ing', 'ed', 'es', 's'];

/** A word reduced to its stem: suffix removed, then a final `e` (so "migrate" meets "migrating"). */
export function stem(word: string): string {
  let result = word;
  for (const suffix of suffixes) {
    if (result.endsWith(suffix) && result.length - suffix.length >= 3) {
      result = result.slice(0, -suffix.length);
      break;
    }
  }
  return result.length > 3 && result.endsWith('e') ? result.slice(0, -1) : result;
}

const wordsOf = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).map(stem);

interface Document {
  entry: MemoryEntry;
  fields: { summary: string[]; raw: string[]; tags: string[] };
}

/** The entries that contain any word of `query`, best first (ties: newest first), at most `limit`. */
export function rankEntries(
  entries: readonly MemoryEntry[],
  query: string,
  limit: number,
): MemorySearchHit[] {
  const words = [...new Set(searchWords(query).map(stem))];
  if (words.length === 0 || entries.length === 0) return [];
  const documents: Document[] = entries.map((entry) => ({
    entry,
    fields: {
      summary: wordsOf(entry.summary),
      raw: wordsOf(entry.rawEntry),
      tags: wordsOf(Object.entries(entry.tags).flat().join(' ')),
    },
  }));
  const fields = ['summary', 'raw', 'tags'] as const;
  const averageLength = Object.fromEntries(
    fields.map((field) => [
      field,
      Math.max(
        1,
        documents.reduce((sum, document) => sum + document.fields[field].length, 0) / documents.length,
      ),
    ]),
  ) as Record<(typeof fields)[number], number>;
  const containing = new Map(
    words.map((word) => [
      word,
      documents.filter((document) => fields.some((field) => document.fields[field].includes(word))).length,
    ]),
  );
  const hits: MemorySearchHit[] = [];
  for (const document of documents) {
    let score = 0;
    for (const word of words) {
      const count = containing.get(word) ?? 0;
      if (count === 0) continue;
      const idf = Math.log(1 + (documents.length - count + 0.5) / (count + 0.5));
      for (const field of fields) {
        const terms = document.fields[field];
        const frequency = terms.filter((term) => term === word).length;
        if (frequency === 0) continue;
        const norm = frequency + k1 * (1 - b + (b * terms.length) / averageLength[field]);
        score += fieldWeights[field] * idf * ((frequency * (k1 + 1)) / norm);
      }
    }
    if (score > 0) hits.push({ entry: document.entry, score });
  }
  // Entries arrive newest first; a stable sort keeps that order among equal scores.
  return hits.sort((left, right) => right.score - left.score).slice(0, limit);
}
