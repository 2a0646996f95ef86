import { createRequire } from 'node:module';

type O200kEncoding = typeof import('gpt-tokenizer/encoding/o200k_base');

// Text that happens to contain "<|endoftext|>" is counted as ordinary text instead of throwing.
const plainText = { disallowedSpecial: new Set<string>() };

let encoding: O200kEncoding | undefined;

/**
 * Counts tokens with the o200k_base encoding (GPT-4o and later). Other model families tokenize
 * differently; use it to compare sizes, not to bill. Loading the encoding's 200k-entry rank table costs
 * about 100 ms in a fresh process whichever gpt-tokenizer entry is used (bench/tokenizer-startup.ts),
 * so it is required on first use: importing the package does not pay for it.
 */
export function countTokens(text: string): number {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base') as O200kEncoding;
  return encoding.countTokens(text, plainText);
}
