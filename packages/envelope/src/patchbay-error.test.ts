import { describe, expect, it } from 'vitest';
import { HttpError } from './http-error.js';
import { PatchbayError } from './patchbay-error.js';

// A second copy of each module, as two installed versions of the package would give: other classes,
// so `instanceof` between the copies fails, while the `Symbol.for` brands are shared.
async function duplicatedInstall(): Promise<{
  PatchbayError: typeof PatchbayError;
  HttpError: typeof HttpError;
}> {
  const base = './patchbay-error.ts?duplicated-install';
  const http = './http-error.ts?duplicated-install';
  const [baseCopy, httpCopy] = await Promise.all([import(base), import(http)]);
  return { PatchbayError: baseCopy.PatchbayError, HttpError: httpCopy.HttpError };
}

describe('PatchbayError.isInstance and HttpError.isInstance', () => {
  const base = new PatchbayError('not_found', 'gone');
  const http = new HttpError({ status: 404 });

  it('knows a PatchbayError, and an HttpError as a PatchbayError', () => {
    expect(PatchbayError.isInstance(base)).toBe(true);
    expect(PatchbayError.isInstance(http)).toBe(true);
  });

  it('does not take a plain PatchbayError for an HttpError', () => {
    expect(HttpError.isInstance(base)).toBe(false);
    expect(HttpError.isInstance(http)).toBe(true);
    expect(HttpError.isHttpError(base)).toBe(false);
  });

  it('does not take a PatchbayError with the http_error code but no status for an HttpError', () => {
    expect(HttpError.isInstance(new PatchbayError('http_error', 'HTTP 500'))).toBe(false);
  });

  it('recognises errors made by a duplicated install of the package, both ways', async () => {
    const copy = await duplicatedInstall();
    const foreignBase = new copy.PatchbayError('conflict', 'taken');
    const foreignHttp = new copy.HttpError({ status: 409 });
    expect(foreignBase instanceof PatchbayError).toBe(false);
    expect(foreignHttp instanceof HttpError).toBe(false);
    expect(PatchbayError.isInstance(foreignBase)).toBe(true);
    expect(PatchbayError.isInstance(foreignHttp)).toBe(true);
    expect(HttpError.isInstance(foreignHttp)).toBe(true);
    expect(HttpError.isInstance(foreignBase)).toBe(false);
    expect(copy.HttpError.isInstance(http)).toBe(true);
    expect(copy.HttpError.isInstance(base)).toBe(false);
    expect(copy.PatchbayError.isInstance(http)).toBe(true);
  });

  it('recognises an error from a copy older than per-class brands by the base brand', () => {
    const older = Object.assign(new Error('HTTP 429'), { code: 'http_error', status: 429 });
    Object.defineProperty(older, Symbol.for('patchbay.error'), { value: true });
    expect(PatchbayError.isInstance(older)).toBe(true);
    expect(HttpError.isInstance(older)).toBe(false);
    expect(HttpError.isHttpError(older)).toBe(true);
  });

  it('keeps the brands out of what is logged or copied', () => {
    expect(Object.keys(http)).not.toContain(String(HttpError.brand));
    expect(JSON.stringify({ ...http })).not.toContain('patchbay.error');
  });

  it('answers false for anything else without throwing', () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    for (const value of [
      null,
      undefined,
      'PatchbayError',
      new Error('x'),
      { code: 'not_found' },
      revoked,
      throwing,
    ]) {
      expect(PatchbayError.isInstance(value)).toBe(false);
      expect(HttpError.isInstance(value)).toBe(false);
    }
  });

  it('works unbound, for the base class', () => {
    expect([base, http, new Error('x')].filter(PatchbayError.isInstance)).toEqual([base, http]);
  });

  it('gives a subclass that declares its own brand its own answer', () => {
    class QuotaError extends HttpError {
      static override readonly brand: symbol = Symbol.for('patchbay.error.test-quota');
    }
    const quota = new QuotaError({ status: 429 });
    expect(QuotaError.isInstance(quota)).toBe(true);
    expect(HttpError.isInstance(quota)).toBe(true);
    expect(PatchbayError.isInstance(quota)).toBe(true);
    expect(QuotaError.isInstance(http)).toBe(false);
    expect(QuotaError.isInstance(base)).toBe(false);
  });
});
