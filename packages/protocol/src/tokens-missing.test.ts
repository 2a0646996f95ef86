import { PatchbayError } from '@patchbay/envelope';
import { afterEach, describe, expect, it, vi } from 'vitest';

// What `require` does in this test file: the module loader's failure, or a load that works.
const loader = vi.hoisted(() => ({ failure: undefined as Error | undefined }));

vi.mock('node:module', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:module')>();
  return {
    ...original,
    createRequire: (from: string | URL) => {
      const require = original.createRequire(from);
      return (specifier: string) => {
        if (loader.failure) throw loader.failure;
        return require(specifier);
      };
    },
  };
});

/** The error Node's require throws when a package is not installed. */
function moduleNotFound(specifier: string): Error {
  const error = new Error(`Cannot find module '${specifier}'\nRequire stack:\n- /app/tokens.js`);
  return Object.assign(error, { code: 'MODULE_NOT_FOUND' });
}

describe('countTokens without gpt-tokenizer installed', () => {
  afterEach(() => {
    loader.failure = undefined;
    vi.resetModules();
  });

  it('throws tokenizer_not_installed saying to install gpt-tokenizer', async () => {
    loader.failure = moduleNotFound('gpt-tokenizer/encoding/o200k_base');
    const { countTokens } = await import('./tokens.js');

    let thrown: unknown;
    try {
      countTokens('hello world');
    } catch (error) {
      thrown = error;
    }
    expect(PatchbayError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'tokenizer_not_installed' });
    expect((thrown as Error).message).toContain('install gpt-tokenizer to count tokens');
    expect((thrown as Error).cause).toBe(loader.failure);
  });

  it('counts once gpt-tokenizer is there: the failed load is not remembered', async () => {
    loader.failure = moduleNotFound('gpt-tokenizer/encoding/o200k_base');
    const { countTokens } = await import('./tokens.js');
    expect(() => countTokens('hello world')).toThrow(/install gpt-tokenizer/);

    loader.failure = undefined;
    expect(countTokens('hello world')).toBe(2);
  });

  it('passes on other load failures (a broken install) unchanged', async () => {
    loader.failure = new SyntaxError('Unexpected token in o200k_base.js');
    const { countTokens } = await import('./tokens.js');
    expect(() => countTokens('hello world')).toThrow(loader.failure);
  });

  it('does not blame gpt-tokenizer when a different module is missing', async () => {
    loader.failure = moduleNotFound('some-other-package');
    const { countTokens } = await import('./tokens.js');
    expect(() => countTokens('hello world')).toThrow(loader.failure);
  });
});
