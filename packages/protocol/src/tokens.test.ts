import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.js';

describe('countTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('hello world hello world')).toBeGreaterThan(countTokens('hello world'));
  });

  it('counts known strings exactly as o200k_base does', () => {
    // Counts cross-checked against tiktoken's own o200k_base (the WASM port of OpenAI's tokenizer).
    const known: [string, number][] = [
      ['hello world', 2],
      ['The quick brown fox jumps over the lazy dog.', 10],
      ['<current_time>2026-11-21T15:00:00Z</current_time>', 21],
      ['{"github":{"scopes":["repo"],"status":"connected","tools":["github_list_repos"]}}', 21],
      ['Grüße aus Köln — 東京 🚀 naïve café', 12],
      ['    indented\n\tcode();\n', 6],
      ['https://id.atlassian.com/manage-profile/security/api-tokens', 13],
    ];
    for (const [text, tokens] of known) expect([text, countTokens(text)]).toEqual([text, tokens]);
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBe(7);
  });
});
