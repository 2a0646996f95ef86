import { describeStatusSourceContract, describeWatchableStatusSourceContract } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createInMemoryStatusSource } from './in-memory-status-source.js';

describeStatusSourceContract('in-memory', () => {
  const source = createInMemoryStatusSource();
  return {
    source,
    connect: (subject, connectorId, connection) => source.connect(subject, connectorId, connection),
    disable: (connectorId, subject) => source.disable(connectorId, subject),
  };
});

// In memory there is no second handle: the setters are how anyone writes, and they announce.
describeWatchableStatusSourceContract('in-memory', () => {
  const source = createInMemoryStatusSource();
  return {
    source,
    writer: {
      connect: (subject, connectorId) =>
        source.connect(subject, connectorId, { credentials: { token: 't' } }),
      disconnect: (subject, connectorId) => source.disconnect(subject, connectorId),
      disable: (connectorId, subject) => source.disable(connectorId, subject),
      markRateLimited: (subject, connectorId, until) => source.markRateLimited(subject, connectorId, until),
      markInvalidCredentials: (subject, connectorId, error) =>
        source.markInvalidCredentials(subject, connectorId, error),
    },
  };
});

describe('createInMemoryStatusSource', () => {
  it('starts from the given connections, policy and rate limits', async () => {
    const source = createInMemoryStatusSource({
      connections: { ana: [{ connectorId: 'github', credentials: { token: 't' }, scopes: ['repo'] }] },
      disabledConnectorIds: ['linear'],
      disabledBySubject: { ana: ['jira'] },
      rateLimitedUntil: { ana: { slack: '2026-11-21T15:05:00.250Z' } },
    });
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

  it('keeps a rate limit that has run out, for readers that judge it by their own clock', async () => {
    const source = createInMemoryStatusSource();
    source.setRateLimit('ana', 'slack', new Date('2001-01-01T00:00:00Z'));
    expect((await source.load('ana')).rateLimitedUntil).toEqual({ slack: '2001-01-01T00:00:00.000Z' });
  });

  it('clears a rate limit, and rejects one that is not a time', async () => {
    const source = createInMemoryStatusSource();
    source.setRateLimit('ana', 'slack', '2026-11-21T15:05:00Z');
    source.setRateLimit('ana', 'slack', undefined);
    expect((await source.load('ana')).rateLimitedUntil).toEqual({});
    expect(() => source.setRateLimit('ana', 'slack', 'soon')).toThrow(/not a valid time/);
  });

  it('disconnects, and enable lifts the disable made with the same arguments', async () => {
    const source = createInMemoryStatusSource();
    source.connect('ana', 'github', { credentials: { token: 't' } });
    source.disconnect('ana', 'github');
    source.disable('jira', 'ana');
    source.disable('linear');
    source.enable('jira', 'ana');
    source.enable('linear');
    expect(await source.load('ana')).toEqual({
      connections: [],
      disabledConnectorIds: [],
      rateLimitedUntil: {},
    });
  });
});
