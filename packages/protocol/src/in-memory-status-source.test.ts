import { describe, expect, it } from 'vitest';
import { createInMemoryStatusSource } from './in-memory-status-source.js';

describe('createInMemoryStatusSource', () => {
  it('loads connections, admin policy and rate limits for one subject', async () => {
    const source = createInMemoryStatusSource({
      disabledConnectorIds: ['linear'],
      disabledBySubject: { ana: ['jira'] },
    });
    source.connect('ana', 'github', { credentials: { token: 't' }, scopes: ['repo'] });
    source.setRateLimit('ana', 'slack', new Date('2026-11-21T15:05:00.250Z'));
    expect(await source.load('ana')).toEqual({
      connections: [{ connectorId: 'github', credentials: { token: 't' }, scopes: ['repo'] }],
      disabledConnectorIds: ['linear', 'jira'],
      rateLimitedUntil: { slack: '2026-11-21T15:05:00.250Z' },
    });
    expect(await source.load('bo')).toEqual({
      connections: [],
      disabledConnectorIds: ['linear'],
      rateLimitedUntil: {},
    });
  });

  it('hands out copies, so a caller cannot change the stored state', async () => {
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 't' }, scopes: ['repo'] });
    const loaded = await source.load('ana');
    loaded.connections[0]!.scopes.push('admin');
    expect((await source.load('ana')).connections[0]!.scopes).toEqual(['repo']);
  });

  it('clears a rate limit, records credential errors and forgets them on reconnect', async () => {
    const source = createInMemoryStatusSource();
    source.setRateLimit('ana', 'slack', '2026-11-21T15:05:00Z');
    source.setRateLimit('ana', 'slack', undefined);
    expect((await source.load('ana')).rateLimitedUntil).toEqual({});
    source.connect('ana', 'jira', { credentials: { token: 'old' } });
    await source.markInvalidCredentials('ana', 'jira', 'Revoked.');
    expect((await source.load('ana')).connections[0]!.credentialError).toBe('Revoked.');
    source.connect('ana', 'jira', { credentials: { token: 'new' } });
    expect((await source.load('ana')).connections[0]!.credentialError).toBeUndefined();
  });

  it('rejects a rate limit that is not a time', () => {
    expect(() => createInMemoryStatusSource().setRateLimit('ana', 'slack', 'soon')).toThrow(
      /not a valid time/,
    );
  });
});
