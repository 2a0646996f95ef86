import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, redactString, redactValue } from './redact.js';

describe('redactString', () => {
  it.each<[string, string, string]>([
    ['a GitHub token after "token"', 'Authorization: token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_'],
    [
      'a GitHub token glued to an underscore',
      'value_ghp_abcdefghijklmnopqrstuvwxyz0123456789_suffix',
      'ghp_abc',
    ],
    ['a Slack bot token', 'used xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp', 'xoxb-'],
    ['an OpenAI project key', 'key=sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'sk-proj-'],
    ['an Anthropic key', 'x-api-key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt_uvwx-yz', 'sk-ant-'],
    ['a Bearer header', 'Authorization: Bearer abc.def.ghi-123', 'abc.def'],
    ['a JWT', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl done', 'eyJhbGci'],
    ['a query-string token', 'GET https://api.test/x?access_token=s3cr3tvalue&page=2', 's3cr3tvalue'],
    ['a quoted JSON password', '{"password": "hunter2hunter2"}', 'hunter2'],
    ['a cookie header', 'cookie: session=abcdef123456', 'abcdef123456'],
  ])('removes %s', (_name, text, leaked) => {
    const redacted = redactString(text);
    expect(redacted).toContain(REDACTED);
    expect(redacted).not.toContain(leaked);
  });

  it('keeps the label so the text still reads', () => {
    expect(redactString('Authorization: Bearer abcdefgh12345')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactString('https://x.test/?token=abc123&page=2')).toBe(
      `https://x.test/?token=${REDACTED}&page=2`,
    );
  });

  it.each([
    'The token has expired; reconnect GitHub.',
    'Basic information about the bot messages channel.',
    'Use the task-management-dashboard-for-this-quarter board.',
    'Rate limit resets at 15:00.',
  ])('leaves ordinary prose alone: %s', (text) => {
    expect(redactString(text)).toBe(text);
  });

  it('removes a given secret as written, URL-encoded and base64-encoded', () => {
    const secret = 'pa$$ word/1234';
    const text = [
      `raw ${secret}`,
      `url ${encodeURIComponent(secret)}`,
      `lower-hex ${encodeURIComponent(secret).toLowerCase()}`,
      `form ${new URLSearchParams({ q: secret }).toString()}`,
      `b64 ${Buffer.from(`user:${secret}`).toString('base64')}`,
      `b64url ${Buffer.from(`xx${secret}`).toString('base64url')}`,
    ].join('\n');
    const redacted = redactString(text, [secret]);
    expect(redacted).not.toContain(secret);
    expect(redacted).not.toContain(encodeURIComponent(secret));
    expect(redacted.match(/\[REDACTED\]/g)).toHaveLength(6);
  });

  it('removes the longer of two overlapping secrets whole', () => {
    expect(redactString('x abcd1234efgh y', ['abcd', 'abcd1234efgh'])).toBe(`x ${REDACTED} y`);
  });

  it('removes a given secret from text a redactor without it already passed as clean', () => {
    // Short text found free of token shapes is remembered; the caller's own secrets still come first.
    const secret = 'plainpass1';
    expect(redactString(secret)).toBe(secret);
    expect(redactString(secret)).toBe(secret);
    expect(redactString(secret, [secret])).toBe(REDACTED);
    expect(redactValue({ [secret]: secret }, [secret])).toEqual({ [REDACTED]: REDACTED });
  });

  it('finds short token shapes every time, among more clean strings than it remembers', () => {
    const token = 'AKIAABCDEFGHIJKLMNOP';
    for (let index = 0; index < 3000; index += 1) {
      expect(redactString(`clean-${index}`)).toBe(`clean-${index}`);
      if (index % 500 === 0) expect(redactString(token)).toBe(REDACTED);
    }
    expect(redactString(token)).toBe(REDACTED);
  });

  it('ignores secrets too short to be told from text, and non-strings', () => {
    expect(redactString('a b c abc', ['abc', 42 as unknown as string])).toBe('a b c abc');
  });
});

describe('redactValue', () => {
  it('redacts keys and nested values and keeps shapes', () => {
    const secret = 'tok-1234567890';
    const value = { list: [secret, 1, null, true], [secret]: { inner: `x ${secret}` } };
    expect(redactValue(value, [secret])).toEqual({
      list: [REDACTED, 1, null, true],
      [REDACTED]: { inner: `x ${REDACTED}` },
    });
  });

  it('marks cycles but keeps a shared, non-cyclic object in both places', () => {
    const shared = { name: 'shared' };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    expect(redactValue(cyclic)).toEqual({ a: { name: 'shared' }, b: { name: 'shared' }, self: '[Circular]' });
  });

  it('keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const copy = redactValue(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
  });

  it('turns unreadable parts into a marker instead of throwing', () => {
    const value = {
      fine: 'ok',
      bad: Object.defineProperty({}, 'x', {
        enumerable: true,
        get() {
          throw new Error('nope');
        },
      }),
    };
    expect(redactValue(value)).toEqual({ fine: 'ok', bad: '[Unreadable]' });
  });

  it('copies dates as they serialise', () => {
    expect(redactValue({ at: new Date('2026-11-21T15:00:00Z') })).toEqual({ at: '2026-11-21T15:00:00.000Z' });
  });

  it('accepts a prepared redactor', () => {
    const redactor = createRedactor(['abcdefgh']);
    expect(redactValue(['abcdefgh'], redactor)).toEqual([REDACTED]);
  });
});
