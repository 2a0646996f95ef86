/** Where a JSON candidate came from: the whole text, a fenced code block, or an object inside prose. */
export type CandidateOrigin = 'whole' | 'fence' | 'prose';

/** A piece of text that may hold the reply object. */
export interface JsonCandidate {
  text: string;
  origin: CandidateOrigin;
  /** The object was still open when the text ended (cut-off output). */
  truncated: boolean;
}

/** A fenced code block found in markdown. */
export interface FencedBlock {
  language: string;
  content: string;
  closed: boolean;
  /** Offset of `content` in the text. */
  start: number;
}

// Bounds keep the scan linear-ish on adversarial input (many unclosed braces).
const maxCandidates = 8;
const maxScanStarts = 24;
const jsonLanguages = new Set(['json', 'jsonc', 'json5', 'javascript', 'js']);

/** Finds markdown code fences (```lang ... ```); an unclosed last fence runs to the end of the text. */
export function findFencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let from = 0;
  while (from < text.length) {
    const open = text.indexOf('```', from);
    if (open === -1) break;
    let cursor = open + 3;
    while (text[cursor] === '`') cursor += 1;
    const info = /^[ \t]*([A-Za-z0-9_+.-]*)/.exec(text.slice(cursor, cursor + 64));
    const language = (info?.[1] ?? '').toLowerCase();
    cursor += info?.[0].length ?? 0;
    const close = text.indexOf('```', cursor);
    blocks.push({
      language,
      content: text.slice(cursor, close === -1 ? text.length : close),
      closed: close !== -1,
      start: cursor,
    });
    if (close === -1) break;
    from = close + 3;
    while (text[from] === '`') from += 1;
  }
  return blocks;
}

/**
 * Collects places where the reply object may be, best first: the whole text when it is one object,
 * then JSON-looking fenced blocks, then balanced objects found in the prose.
 */
export function findJsonCandidates(text: string): JsonCandidate[] {
  const candidates: JsonCandidate[] = [];
  const seen = new Set<string>();
  const add = (candidate: JsonCandidate) => {
    if (candidates.length >= maxCandidates || seen.has(candidate.text)) return;
    seen.add(candidate.text);
    candidates.push(candidate);
  };
  const trimmed = text.trim();
  const prose = findObjects(text);
  const first = prose[0];
  // A reply that is just one object is taken as-is, before fences: its strings may contain backticks.
  if (first && trimmed.startsWith('{') && first.text.trim() === trimmed) {
    add({ text: first.text, truncated: first.truncated, origin: 'whole' });
  }
  const blocks = findFencedBlocks(text);
  const ranked = [
    ...blocks.filter((block) => jsonLanguages.has(block.language)),
    ...blocks.filter((block) => block.language === ''),
    ...blocks.filter((block) => block.language !== '' && !jsonLanguages.has(block.language)),
  ];
  for (const block of ranked) {
    for (const found of findObjects(block.content)) {
      // A "```" inside a JSON string is not the end of the block: an object the fence cut off is
      // read on to its own closing brace when the text has one.
      const end = found.truncated && block.closed ? matchObject(text, block.start + found.start) : -1;
      if (end !== -1) {
        add({ text: text.slice(block.start + found.start, end + 1), truncated: false, origin: 'fence' });
      } else {
        add({ text: found.text, truncated: found.truncated, origin: 'fence' });
      }
    }
  }
  for (const found of prose) add({ text: found.text, truncated: found.truncated, origin: 'prose' });
  return candidates;
}

/**
 * Finds top-level `{...}` objects in text, in order, each with its offset; an object still open at
 * the end is returned as truncated.
 */
export function findObjects(text: string): Array<{ text: string; truncated: boolean; start: number }> {
  const found: Array<{ text: string; truncated: boolean; start: number }> = [];
  let from = 0;
  let starts = 0;
  while (from < text.length && found.length < maxCandidates && starts < maxScanStarts) {
    const start = text.indexOf('{', from);
    if (start === -1) break;
    starts += 1;
    const end = matchObject(text, start);
    if (end === -1) {
      found.push({ text: text.slice(start), truncated: true, start });
      from = start + 1;
    } else {
      found.push({ text: text.slice(start, end + 1), truncated: false, start });
      from = end + 1;
    }
  }
  return found;
}

/**
 * Returns the index of the `}` closing the object opened at `start`, or -1 when the text ends first.
 * Braces inside double-quoted strings, single-quoted strings (as models write them) and comments
 * do not count; backslash escapes are honoured.
 */
export function matchObject(text: string, start: number): number {
  let depth = 0;
  let quote: '"' | "'" | null = null;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (quote) {
      if (char === '\\') index += 1;
      else if (char === quote && (quote === '"' || closesSingleQuote(text, index + 1))) quote = null;
      continue;
    }
    if (char === '"') quote = '"';
    else if (char === "'" && opensSingleQuote(text, index - 1)) quote = "'";
    else if (char === '/' && text[index + 1] === '/') {
      const newline = text.indexOf('\n', index);
      if (newline === -1) return -1;
      index = newline;
    } else if (char === '/' && text[index + 1] === '*') {
      const close = text.indexOf('*/', index + 2);
      if (close === -1) return -1;
      index = close + 1;
    } else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

// An apostrophe opens a string only where a JSON key or value may start, so "don't" in a comment or
// bare word does not swallow the rest of the object.
function opensSingleQuote(text: string, before: number): boolean {
  let index = before;
  while (index >= 0 && /\s/.test(text[index] ?? '')) index -= 1;
  const previous = text[index];
  return previous === '{' || previous === ',' || previous === ':' || previous === '[';
}

function closesSingleQuote(text: string, after: number): boolean {
  let index = after;
  while (index < text.length && /\s/.test(text[index] ?? '')) index += 1;
  const next = text[index];
  return next === undefined || next === ',' || next === '}' || next === ':' || next === ']';
}
