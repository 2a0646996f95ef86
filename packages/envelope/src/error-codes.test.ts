import { describe, expect, expectTypeOf, it } from 'vitest';
import { errorDefaults } from './constructors.js';
import {
  errorTypeOfCode,
  isPatchbayErrorCode,
  type PatchbayErrorCode,
  patchbayErrorCodes,
} from './error-codes.js';
import { type ErrorType, errorTypes } from './error-types.js';
import { PatchbayError } from './patchbay-error.js';
import { toEnvelope } from './to-envelope.js';

/** Levenshtein distance, for spotting codes that differ by a typo or a plural. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

// Pairs of codes allowed to be this close, each with the reason. Empty today: keep it that way.
const allowedNearPairs: ReadonlyMap<string, string> = new Map();

describe('PatchbayErrorCode', () => {
  it('has no two codes one or two edits apart (invalid_argument next to invalid_arguments)', () => {
    const near: string[] = [];
    for (const [index, code] of patchbayErrorCodes.entries()) {
      for (const other of patchbayErrorCodes.slice(index + 1)) {
        const distance = editDistance(code, other);
        if (distance <= 2 && !allowedNearPairs.has(`${code} ${other}`)) near.push(`${code} ~ ${other}`);
      }
    }
    expect(near).toEqual([]);
  });

  it('finds near-duplicates when there are some (the check itself works)', () => {
    expect(editDistance('invalid_argument', 'invalid_arguments')).toBe(1);
    expect(editDistance('store_error', 'stor_eror')).toBe(2);
    expect(editDistance('config_invalid', 'invalid_config')).toBeGreaterThan(2);
  });

  it('lists each code once, in snake_case', () => {
    expect(new Set(patchbayErrorCodes).size).toBe(patchbayErrorCodes.length);
    for (const code of patchbayErrorCodes) expect(code).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
  });

  it('holds every envelope error type, each mapping to itself', () => {
    for (const type of errorTypes) {
      expect(isPatchbayErrorCode(type)).toBe(true);
      expect(errorTypeOfCode(type)).toBe(type);
    }
  });

  it('maps every other code to an envelope error type', () => {
    for (const code of patchbayErrorCodes) {
      expect(errorTypes).toContain(errorTypeOfCode(code));
    }
  });

  it('refuses what is not a code, inherited names included', () => {
    for (const value of ['invalid_argument', 'usage', 'toString', '__proto__', '', 42, null, undefined]) {
      expect(isPatchbayErrorCode(value)).toBe(false);
    }
  });

  it('is refused as a free string at the type level', () => {
    expectTypeOf<'invalid_argument'>().not.toExtend<PatchbayErrorCode>();
    expectTypeOf<string>().not.toExtend<PatchbayErrorCode>();
    expectTypeOf<ErrorType>().toExtend<PatchbayErrorCode>();
    expectTypeOf(new PatchbayError('not_found', 'x').code).toEqualTypeOf<PatchbayErrorCode>();
    // @ts-expect-error a code outside the union does not compile
    expect(new PatchbayError('invalid_argument', 'x').code).toBe('invalid_argument');
    const dynamic: string = 'not_found';
    // @ts-expect-error nor does a free string
    expect(new PatchbayError(dynamic, 'x').code).toBe('not_found');
  });
});

describe('toEnvelope of a PatchbayError', () => {
  const developerText = 'register(): agent "x" at /srv/app/agents.ts failed';

  it.each(errorTypes)('passes the error type %s through with the error message', (type) => {
    const envelope = toEnvelope(new PatchbayError(type, 'Say this to the user.'));
    expect(envelope).toMatchObject({ ok: false, error_type: type, user_message: 'Say this to the user.' });
  });

  const otherCodes = patchbayErrorCodes.filter((code) => !(errorTypes as readonly string[]).includes(code));

  it.each(otherCodes)('maps %s to its error type with that type’s own sentence', (code) => {
    const type = errorTypeOfCode(code);
    const envelope = toEnvelope(new PatchbayError(code, developerText));
    expect(envelope).toMatchObject({
      ok: false,
      error_type: type,
      user_message: errorDefaults(type).message,
    });
    expect(JSON.stringify(envelope)).not.toContain('/srv/app');
  });

  it('classifies a code it does not know (a newer copy of the package) by the error itself', () => {
    const foreign = Object.assign(new Error('socket hang up'), {
      code: 'some_future_code',
      cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
    });
    Object.defineProperty(foreign, Symbol.for('patchbay.error'), { value: true });
    expect(toEnvelope(foreign)).toMatchObject({ error_type: 'network_error' });
  });
});
