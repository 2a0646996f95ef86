import { createRequire } from 'node:module';

type O200kEncoding = typeof import('gpt-tokenizer/encoding/o200k_base');

// Text that happens to contain "<|endoftext|>" is counted as ordinary text instead of throwing.
const plainText = { disallowedSpecial: new Set<string>() };

let encoding: O200kEncoding | undefined;

/**
 * Counts tokens with the o200k_base encoding (GPT-4o and later). Other model families tokenize
 * differently; use it to compare sizes, not to bill. The encoding's rank table takes about 200 ms to
 * load, so it is required on first use rather than when the package is imported.
 */
export function countTokens(text: string): number {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base') as O200kEncoding;
  return encoding.countTokens(text, plainText);
}
