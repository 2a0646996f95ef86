import { describe, expect, it } from 'vitest';
import { CredentialCache } from './credential-cache.js';

const iv = Buffer.alloc(12, 1);
const tag = Buffer.alloc(16, 2);

describe('CredentialCache', () => {
  it('answers only for the exact sealed value it remembered, with copies', () => {
    const cache = new CredentialCache();
    cache.set('row', iv, tag, { token: 't' });
    const first = cache.get('row', iv, tag) as Record<string, string>;
    expect(first).toEqual({ token: 't' });
    first.token = 'changed';
    expect(cache.get('row', iv, tag)).toEqual({ token: 't' });
    expect(cache.get('row', Buffer.alloc(12, 9), tag)).toBeUndefined();
    expect(cache.get('row', iv, Buffer.alloc(16, 9))).toBeUndefined();
    expect(cache.get('other row', iv, tag)).toBeUndefined();
  });

  it('keeps at most its limit, dropping the oldest, and forgets everything on clear', () => {
    const cache = new CredentialCache(2);
    cache.set('a', iv, tag, { token: 'a' });
    cache.set('b', iv, tag, { token: 'b' });
    cache.set('c', iv, tag, { token: 'c' });
    expect(cache.get('a', iv, tag)).toBeUndefined();
    expect(cache.get('c', iv, tag)).toEqual({ token: 'c' });
    cache.clear();
    expect(cache.get('c', iv, tag)).toBeUndefined();
  });
});
