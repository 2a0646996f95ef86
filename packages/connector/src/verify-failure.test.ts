import { HttpError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { verifyFailure } from './verify-failure.js';

describe('verifyFailure', () => {
  it.each([
    [new HttpError({ status: 401 }), { valid: false, reason: 'invalid_credentials' }],
    [new HttpError({ status: 403 }), { valid: false, reason: 'invalid_credentials' }],
    [
      new HttpError({ status: 403, headers: { 'x-ratelimit-remaining': '0', 'retry-after': '9' } }),
      { valid: false, reason: 'rate_limited', retryAfterS: 9 },
    ],
    [
      new HttpError({ status: 429, headers: { 'retry-after': '30' } }),
      { valid: false, reason: 'rate_limited', retryAfterS: 30 },
    ],
    [
      new HttpError({ status: 403, headers: { 'retry-after': '60' } }),
      { valid: false, reason: 'rate_limited', retryAfterS: 60 },
    ],
    // Services that say it in the body only (the envelope mapping reads the same rule).
    [
      new HttpError({ status: 403, body: { message: 'API rate limit exceeded for user' } }),
      { valid: false, reason: 'rate_limited' },
    ],
    [new HttpError({ status: 503 }), { valid: false, reason: 'unreachable' }],
    [new TypeError('fetch failed'), { valid: false, reason: 'unreachable' }],
  ])('maps %o', (error, expected) => {
    expect(verifyFailure(error)).toMatchObject(expected);
  });

  it('reads an HttpError thrown by another copy of the envelope package', () => {
    // Same brand and code, different class: what a duplicated install produces.
    const foreign = Object.assign(new Error('HTTP 401'), {
      code: 'http_error',
      status: 401,
      headers: new Headers(),
      [Symbol.for('patchbay.error')]: true,
    });
    expect(foreign).not.toBeInstanceOf(HttpError);
    expect(verifyFailure(foreign)).toMatchObject({ valid: false, reason: 'invalid_credentials' });
  });

  it('never repeats the error text (it may carry a token)', () => {
    const result = verifyFailure(new Error('Bearer ghp_secretsecretsecretsecret12'));
    expect(JSON.stringify(result)).not.toContain('ghp_');
  });
});
