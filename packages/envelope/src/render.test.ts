import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  approvalRequired,
  disabledByAdmin,
  failure,
  invalidCredentials,
  needsInput,
  notConfigured,
  permissionDenied,
  rateLimited,
  success,
} from './constructors.js';
import type { ErrorEnvelope } from './envelope.js';
import { errorTypes } from './error-types.js';
import { redactString } from './redact.js';
import { formatWait, renderEnvelopeForModel, renderEnvelopeForUser, truncateForModel } from './render.js';

describe('renderEnvelopeForModel', () => {
  it('renders one line of JSON with sorted keys and no meta', () => {
    const envelope = rateLimited({
      connector: 'slack',
      retryAfterS: 30,
      meta: { correlation_id: 'c-1', duration_ms: 12 },
    });
    expect(renderEnvelopeForModel(envelope)).toBe(
      '{"connector":"slack","error_type":"rate_limited","ok":false,"retry_after_s":30,"retryable":true,"user_message":"The service is rate limiting requests right now."}',
    );
  });

  it('is byte-identical for equal envelopes built in a different key order', () => {
    const a = { ok: true as const, data: { b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } } };
    const b = { data: { a: { c: 'x', d: [1, { y: 2, z: 1 }] }, b: 1 }, ok: true as const };
    expect(renderEnvelopeForModel(a)).toBe(renderEnvelopeForModel(b));
    expect(renderEnvelopeForModel(a)).toBe('{"data":{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1},"ok":true}');
  });

  it('orders keys by UTF-16 code unit, as Array#sort does, for short and long key lists alike', () => {
    // Short lists are sorted by insertion, longer ones by Array#sort: both must give the same order.
    const keys = ['b', 'B', 'a', 'é', 'aa', '_', '10', '9', 'Z', '\u{1F600}', '\uFFFD', ''];
    for (const count of [0, 1, 2, 3, keys.length, 16, 17, 40]) {
      const names = Array.from({ length: count }, (_, index) =>
        index < keys.length ? (keys[index] as string) : `k${(index * 7919) % 97}-${index}`,
      );
      const data = Object.fromEntries(names.map((name, index) => [name, index]));
      // Written by hand: an object would put integer-like keys ("9", "10") first whatever the order.
      const expected = [...names]
        .sort()
        .map((name) => `${JSON.stringify(name)}:${data[name]}`)
        .join(',');
      expect(renderEnvelopeForModel(success(data))).toBe(`{"data":{${expected}},"ok":true}`);
    }
  });

  it('stays valid JSON for values JSON.stringify rejects', () => {
    const cyclic: Record<string, unknown> = { big: 10n, nan: Number.NaN, skip: undefined, at: new Date(0) };
    cyclic.self = cyclic;
    const text = renderEnvelopeForModel(success(cyclic));
    expect(JSON.parse(text)).toEqual({
      ok: true,
      data: { at: '1970-01-01T00:00:00.000Z', big: '10', nan: null, self: '[Circular]' },
    });
  });

  it('writes every JSON value as JSON.parse reads it back, keys sorted at every level', () => {
    // The oracle: JSON.stringify of each key and leaf (token shapes redacted, as rendering does),
    // objects' keys in sorted order.
    const sorted = (value: unknown): string =>
      Array.isArray(value)
        ? `[${value.map(sorted).join(',')}]`
        : value !== null && typeof value === 'object'
          ? `{${Object.keys(value)
              .sort()
              .map((key) => `${sorted(key)}:${sorted((value as Record<string, unknown>)[key])}`)
              .join(',')}}`
          : JSON.stringify(typeof value === 'string' ? redactString(value) : value);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = renderEnvelopeForModel(success(value));
        const back = JSON.parse(text) as { data: unknown };
        // JSON.stringify is the reference for every value it accepts (it writes -0 as 0, as we do).
        expect(back.data).toEqual(JSON.parse(JSON.stringify(value) ?? 'null'));
        expect(text).toBe(`{"data":${sorted(value)},"ok":true}`);
      }),
    );
  });

  it('marks what it cannot write instead of throwing, and leaves out what JSON has no value for', () => {
    const shared = { n: 1 };
    let deep: unknown = 'bottom';
    for (let level = 0; level < 70; level += 1) deep = { down: deep };
    const data = {
      twice: [shared, shared],
      holes: [undefined, () => 1, Symbol('s'), 2],
      gone: { toJSON: () => undefined },
      unreadable: {
        get boom(): never {
          throw new Error('no');
        },
      },
      fn: () => 1,
      deep,
    };
    const back = JSON.parse(renderEnvelopeForModel(success(data))).data;
    expect(back.twice).toEqual([{ n: 1 }, { n: 1 }]);
    expect(back.holes).toEqual([null, null, null, 2]);
    expect('gone' in back).toBe(false);
    expect('fn' in back).toBe(false);
    expect(back.unreadable).toBe('[Unreadable]');
    let level = back.deep;
    let depth = 2;
    while (typeof level === 'object') {
      level = level.down;
      depth += 1;
    }
    expect(level).toBe('[Too deep]');
    expect(depth).toBe(64);
  });

  it('cuts long strings when asked to', () => {
    const text = renderEnvelopeForModel(success('x'.repeat(50)), { maxStringLength: 10 });
    expect(JSON.parse(text).data).toBe('xxxxxxxxxx… [40 more characters]');
  });

  it('removes token shapes and given secrets even from hand-made envelopes', () => {
    const envelope = success({ note: 'Bearer abcdefgh12345678', other: 'my-own-secret' });
    const text = renderEnvelopeForModel(envelope, { secrets: ['my-own-secret'] });
    expect(text).not.toContain('abcdefgh12345678');
    expect(text).not.toContain('my-own-secret');
  });
});

describe('truncateForModel and maxLength', () => {
  it('keeps a rendering within the limit and notes the full size of a cut one', () => {
    const big = success({ text: 'x'.repeat(5 * 1024 * 1024) });
    const full = renderEnvelopeForModel(big);
    const cut = renderEnvelopeForModel(big, { maxLength: 20_000 });
    expect(cut.startsWith(full.slice(0, 20_000))).toBe(true);
    expect(
      cut.endsWith(
        `… [result truncated: ${full.length.toLocaleString('en-US')} characters, showing the first 20,000]`,
      ),
    ).toBe(true);
    expect(cut.length).toBeLessThan(20_100);
    expect(renderEnvelopeForModel(success({ a: 1 }), { maxLength: 20_000 })).toBe(
      '{"data":{"a":1},"ok":true}',
    );
  });

  it('never splits a surrogate pair and never exceeds limit + note', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.nat({ max: 250 }), (text, limit) => {
        const cut = truncateForModel(text, limit);
        if (text.length <= limit) {
          expect(cut).toBe(text);
          return;
        }
        const kept = cut.slice(0, cut.lastIndexOf('… [result truncated'));
        expect(text.startsWith(kept)).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(limit);
        expect(kept.length).toBeGreaterThanOrEqual(limit - 1);
        expect(/[\uD800-\uDBFF]$/.test(kept)).toBe(false);
      }),
    );
  });

  it('builds its number format on the first cut, not when the module loads (start-up CPU)', async () => {
    const NumberFormat = Intl.NumberFormat;
    const constructed: unknown[][] = [];
    Intl.NumberFormat = new Proxy(NumberFormat, {
      construct(target, args) {
        constructed.push(args);
        return Reflect.construct(target, args);
      },
    });
    try {
      vi.resetModules();
      const fresh = await import('./render.js');
      expect(constructed).toEqual([]);
      expect(fresh.truncateForModel('x'.repeat(12_345), 10)).toBe(
        `${'x'.repeat(10)}… [result truncated: 12,345 characters, showing the first 10]`,
      );
      fresh.truncateForModel('x'.repeat(1_000_000), 1_000);
      expect(constructed).toEqual([['en-US']]);
    } finally {
      Intl.NumberFormat = NumberFormat;
    }
  });
});

describe('renderEnvelopeForUser', () => {
  it.each<[string, ErrorEnvelope, string | undefined, string]>([
    [
      'rate limited with a delay',
      rateLimited({ connector: 'slack', retryAfterS: 30 }),
      'Slack',
      'Slack is rate limiting requests; try again in 30 seconds.',
    ],
    [
      'rate limited without a delay',
      rateLimited({ connector: 'slack' }),
      'Slack',
      'Slack is rate limiting requests; try again later.',
    ],
    [
      'not configured with a setup URL',
      notConfigured({ connector: 'github', setupUrl: 'https://app.test/connect/github' }),
      'GitHub',
      'Connect GitHub at https://app.test/connect/github to do this.',
    ],
    [
      'not configured, connector id only',
      notConfigured({ connector: 'github' }),
      undefined,
      'github is not connected yet; connect it to do this.',
    ],
    [
      'invalid credentials',
      invalidCredentials({ connector: 'github', setupUrl: 'https://app.test/connect/github' }),
      'GitHub',
      'The GitHub connection is no longer valid; reconnect it at https://app.test/connect/github and try again.',
    ],
    [
      'missing scopes',
      permissionDenied({ connector: 'github', missingScopes: ['repo', 'workflow'] }),
      'GitHub',
      'The GitHub connection is missing the permissions repo, workflow; reconnect it and grant them.',
    ],
    [
      'needs input asks the questions',
      needsInput({ missing: [{ field: 'to', question: 'Who should receive it?' }] }),
      'Slack',
      'Who should receive it?',
    ],
    [
      'disabled by admin names nothing',
      disabledByAdmin({ connector: 'jira' }),
      'Jira',
      'This action is not available.',
    ],
    [
      'approval required carries the proposal id',
      approvalRequired({ proposalId: 'p-42' }),
      undefined,
      'This action is waiting for approval (proposal p-42).',
    ],
    [
      'no connector at all',
      failure('network_error'),
      undefined,
      'The service could not be reached; try again in a moment.',
    ],
  ])('%s', (_name, envelope, connectorName, expected) => {
    expect(renderEnvelopeForUser(envelope, connectorName ? { connectorName } : {})).toBe(expected);
  });

  it.each(errorTypes)('%s renders one or two sentences without the service text', (type) => {
    const envelope = failure(type, {
      connector: 'github',
      userMessage: 'The service said: ghp_abcdefghijklmnopqrstuvwxyz0123456789 at /srv/x.js',
      missing: [{ field: 'to', question: 'Who should receive it?' }],
    });
    const sentence = renderEnvelopeForUser(envelope, { connectorName: 'GitHub' });
    expect(sentence).toMatch(/^[A-Z].*[.?]$/);
    expect(sentence.split(/[.?](?:\s|$)/).filter(Boolean).length).toBeLessThanOrEqual(2);
    expect(sentence).not.toMatch(/ghp_|\/srv\//);
  });

  it.each(errorTypes.filter((type) => type !== 'internal_error'))(
    '%s has a sentence of its own, not the fallback for unexpected errors',
    (type) => {
      const sentence = renderEnvelopeForUser(failure(type, { connector: 'github' }));
      expect(sentence).not.toBe(renderEnvelopeForUser(failure('internal_error')));
    },
  );

  it('says a cancelled call was stopped by the cancel, not that the service was slow', () => {
    const sentence = renderEnvelopeForUser(failure('cancelled', { connector: 'github' }), {
      connectorName: 'GitHub',
    });
    expect(sentence).toBe('The request was cancelled, so it was stopped.');
    // The model reads the type and that it must not try again on its own.
    expect(renderEnvelopeForModel(failure('cancelled'))).toBe(
      '{"error_type":"cancelled","ok":false,"retryable":false,"user_message":"The request was cancelled, so it was stopped."}',
    );
    expect(sentence).not.toBe(
      renderEnvelopeForUser(failure('timeout', { connector: 'github' }), { connectorName: 'GitHub' }),
    );
  });

  it('leaves out a setup URL that is not a web address', () => {
    const envelope = notConfigured({ connector: 'github', setupUrl: 'javascript:alert(1)' });
    expect(renderEnvelopeForUser(envelope, { connectorName: 'GitHub' })).toBe(
      'GitHub is not connected yet; connect it to do this.',
    );
  });

  it('says done for a success', () => {
    expect(renderEnvelopeForUser(success(1))).toBe('Done.');
  });
});

describe('formatWait', () => {
  it.each([
    [1, '1 second'],
    [30, '30 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [7200, '2 hours'],
  ])('%d → %s', (seconds, expected) => {
    expect(formatWait(seconds)).toBe(expected);
  });
});
