/** Most terms a search sends to the database: a pasted page must not become a query of thousands of terms. */
const maxTerms = 32;

/**
 * The words of a free-text query, lower-cased, each once, at most 32: what both stores search for.
 * Only letters, digits and `_` make a word, so operators, quotes or column filters typed by a user
 * or a model are never interpreted, only searched for as the words they contain.
 */
export function searchWords(text: string): string[] {
  if (typeof text !== 'string') return [];
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.map((word) => word.toLowerCase()))].slice(0, maxTerms);
}

/**
 * Turns free text into a safe FTS5 query: its words, each quoted, joined with OR so that bm25
 * ranks entries matching more of the words first. Undefined when the text has no words.
 */
export function ftsQuery(text: string): string | undefined {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word}"`).join(' OR ');
}
