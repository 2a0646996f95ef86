import { describe, expect, it } from 'vitest';
import { corpusText, loadCorpus, mismatches } from './corpus/corpus.js';
import { parseSacp } from './parse-sacp.js';
import { sacpReplySchema } from './reply.js';

const corpus = loadCorpus();

describe('parseSacp over the messy-output corpus', () => {
  it('has at least 40 cases with unique names', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(new Set(corpus.map((entry) => entry.name)).size).toBe(corpus.length);
  });

  it.each(corpus.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const text = corpusText(entry.input);
    const result = parseSacp(text);
    expect(sacpReplySchema.safeParse(result.reply).success).toBe(true);
    expect(mismatches(result, entry.expect)).toEqual([]);
    if (result.fallback) {
      expect(typeof result.reply.data.raw_output).toBe('string');
      expect(text.startsWith(result.reply.data.raw_output as string)).toBe(true);
      expect(result.issues?.length).toBeGreaterThan(0);
    }
  });
});
