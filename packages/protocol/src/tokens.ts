import { createRequire } from 'node:module';
import { PatchbayError } from '@patchbay/envelope';

type O200kEncoding = typeof import('gpt-tokenizer/encoding/o200k_base');

// gpt-tokenizer's public per-encoding entry (its `./*` export), not a file inside the package.
const tokenizerModule = 'gpt-tokenizer/encoding/o200k_base';

// Text that happens to contain "<|endoftext|>" is counted as ordinary text instead of throwing.
const plainText = { disallowedSpecial: new Set<string>() };

let encoding: O200kEncoding | undefined;

// require() rather than import(): countTokens stays synchronous, and the `require` condition of
// gpt-tokenizer's `./*` export maps this public path to its CommonJS build.
const requireModule = createRequire(import.meta.url);

function isMissingTokenizer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') &&
    error instanceof Error &&
    error.message.includes('gpt-tokenizer')
  );
}

function loadEncoding(): O200kEncoding {
  try {
    return requireModule(tokenizerModule) as O200kEncoding;
  } catch (error) {
    if (!isMissingTokenizer(error)) throw error;
    throw new PatchbayError(
      'tokenizer_not_installed',
      'countTokens needs the optional peer dependency gpt-tokenizer: install gpt-tokenizer to count tokens (npm install gpt-tokenizer).',
      { cause: error },
    );
  }
}

/**
 * Counts tokens with the o200k_base encoding (GPT-4o and later). Other model families tokenize
 * differently; use it to compare sizes, not to bill. gpt-tokenizer is an optional peer dependency:
 * without it this throws `tokenizer_not_installed`. Loading the encoding's 200k-entry rank table costs
 * about 100 ms in a fresh process whichever gpt-tokenizer entry is used (bench/tokenizer-startup.ts),
 * so it is required on first use: importing this module does not pay for it.
 */
export function countTokens(text: string): number {
  encoding ??= loadEncoding();
  return encoding.countTokens(text, plainText);
}
