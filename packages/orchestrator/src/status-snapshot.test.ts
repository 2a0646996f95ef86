import { describe, expect, it } from 'vitest';
import { buildStatusSnapshot } from './status-snapshot.js';

const now = new Date('2030-01-01T00:00:00Z');
const token = { token: 'secret-value' };

describe('buildStatusSnapshot', () => {
  it('applies admin policy, then rate limit, then credential errors, then connections', () => {
    const snapshot = buildStatusSnapshot(
      'user-1',
      {
        connections: [
          { connectorId: 'a', credentials: token, scopes: ['read'] },
          { connectorId: 'b', credentials: token, scopes: [] },
          { connectorId: 'c', credentials: token, scopes: [], credentialError: 'revoked' },
          { connectorId: 'd', credentials: token, scopes: [], credentialError: 'revoked' },
          { connectorId: 'e', credentials: token, scopes: ['x'] },
        ],
        disabledConnectorIds: ['b'],
        rateLimitedUntil: { d: '2030-01-01T00:05:00Z', e: '2029-12-31T23:00:00Z' },
      },
      ['a', 'b', 'c', 'd', 'e', 'f'],
      now,
    );
    expect(
      Object.fromEntries(Object.entries(snapshot.connectors).map(([id, entry]) => [id, entry.status])),
    ).toEqual({
      a: 'connected',
      b: 'disabled_by_admin',
      c: 'invalid_credentials',
      d: 'rate_limited',
      e: 'connected',
      f: 'not_configured',
    });
    expect(snapshot.connectors.a?.scopes).toEqual(['read']);
    expect(snapshot.connectors.c?.error).toBe('revoked');
    expect(snapshot.connectors.d?.retryAfter).toBe('2030-01-01T00:05:00Z');
    expect(snapshot.capturedAt).toBe(now.toISOString());
    expect(JSON.stringify(snapshot)).not.toContain('secret-value');
  });
});
