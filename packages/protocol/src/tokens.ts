import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

// Text that happens to contain "<|endoftext|>" is counted as ordinary text instead of throwing.
const plainText = { disallowedSpecial: new Set<string>() };

/**
 * Counts tokens with the o200k_base encoding (GPT-4o and later). Other model families tokenize
 * differently; use it to compare sizes, not to bill.
 */
export function countTokens(text: string): number {
  return countO200k(text, plainText);
}
