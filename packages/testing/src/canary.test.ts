import { describe, expect, it } from 'vitest';
import { canaryCredentials, canarySecret, findSecretLeaks } from './canary.js';

const connector = {
  auth: {
    kind: 'basic' as const,
    scopes: [],
    fields: [
      { name: 'email', description: 'Account email', secret: false },
      { name: 'api_token', description: 'API token', secret: true },
      { name: 'site', description: 'Site host', secret: false },
    ],
  },
};

describe('canaryCredentials', () => {
  it('appends a canary to secret fields after the valid-looking value and leaves given non-secret fields alone', () => {
    const credentials = canaryCredentials(connector, { email: 'me@example.test', api_token: 'ATATT3x' });
    expect(credentials.email).toBe('me@example.test');
    expect(credentials.api_token).toMatch(/^ATATT3xpbcanary[0-9a-f]{24}$/);
    expect(credentials.site).toMatch(/^pbcanary[0-9a-f]{24}$/);
  });

  it('draws a fresh canary each time', () => {
    expect(canarySecret()).not.toBe(canarySecret());
  });
});

describe('findSecretLeaks', () => {
  const secret = `xoxb-live-${canarySecret()}`;
  const canary = secret.slice('xoxb-live-'.length);

  it('finds nothing in an envelope without the secret', () => {
    const envelope = {
      ok: false,
      error_type: 'invalid_credentials',
      user_message: 'Reconnect Slack. [REDACTED]',
    };
    expect(findSecretLeaks(envelope, [secret])).toEqual([]);
  });

  it.each([
    ['as is', (value: string) => value],
    ['upper-cased', (value: string) => value.toUpperCase()],
    ['cut to a fragment', (value: string) => value.slice(-14)],
    ['URL-encoded in a query', (value: string) => `https://x.test/?t=${encodeURIComponent(`a b/${value}`)}`],
    ['base64 after a 1-byte prefix', (value: string) => Buffer.from(`u${value}`).toString('base64')],
    ['base64 after a 2-byte prefix', (value: string) => Buffer.from(`us${value}`).toString('base64url')],
  ])('finds the secret %s', (_label, transform) => {
    const leaks = findSecretLeaks({ ok: true, data: { items: [{ note: transform(secret) }] } }, [secret]);
    expect(leaks).toHaveLength(1);
    expect(leaks[0]).toMatch(/^data\.items\[0\]\.note: credential found/);
  });

  it('looks at keys too and never repeats the secret in its report', () => {
    const leaks = findSecretLeaks({ meta: { [secret]: true } }, [secret]);
    expect(leaks).toEqual(['meta.<key> (key): credential found as text']);
    expect(leaks.join('')).not.toContain(canary.slice(8));
  });

  it('hunts for the whole value of a secret that carries no canary', () => {
    expect(
      findSecretLeaks({ message: 'token abc123def456ghi7 rejected' }, ['abc123def456ghi7']),
    ).toHaveLength(1);
  });
});
