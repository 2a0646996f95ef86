/** Most terms a search sends to FTS5: a pasted page must not become a query of thousands of terms. */
const maxTerms = 32;

/**
 * Turns free text into a safe FTS5 query: its words, each quoted (so `AND`, `NEAR`, `*`, `"` or a
 * column filter typed by a user or a model is searched for, never interpreted), joined with OR so
 * that bm25 ranks entries matching more of the words first. Undefined when the text has no words.
 */
export function ftsQuery(text: string): string | undefined {
  if (typeof text !== 'string') return undefined;
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const unique = [...new Set(words.map((word) => word.toLowerCase()))].slice(0, maxTerms);
  if (unique.length === 0) return undefined;
  return unique.map((word) => `"${word}"`).join(' OR ');
}
