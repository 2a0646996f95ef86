import type { SubjectState } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { StatusCache } from './status-cache.js';

const now = '2026-11-27T10:00:00.000Z';

function state(): SubjectState {
  return {
    connections: [
      { connectorId: 'github', credentials: { token: 'gh' }, scopes: ['repo'] },
      { connectorId: 'slack', credentials: { token: 'sl' }, scopes: [], credentialError: 'Revoked.' },
    ],
    disabledConnectorIds: ['jira'],
    rateLimitedUntil: { github: '2026-11-27T10:05:00.000Z', slack: '2026-11-27T09:59:00.000Z' },
  };
}

/** A cache on a clock the test moves, already listening. */
function listeningCache(limit = 10) {
  let time = 1_000_000;
  const cache = new StatusCache(limit, 2000, () => time);
  cache.setListening(true);
  return { cache, advance: (ms: number) => (time += ms) };
}

describe('StatusCache', () => {
  it('keeps nothing until the listening connection is in place, and drops everything when it goes', () => {
    const cache = new StatusCache();
    cache.put('ana', cache.begin(), state());
    expect(cache.get('ana', now)).toBeUndefined();
    cache.setListening(true);
    cache.put('ana', cache.begin(), state());
    expect(cache.get('ana', now)).toBeDefined();
    cache.setListening(false);
    expect(cache.get('ana', now)).toBeUndefined();
    cache.setListening(true);
    expect(cache.get('ana', now)).toBeUndefined();
  });

  it('does not keep a read that overlapped a change, of that subject or of anyone', () => {
    const { cache } = listeningCache();
    const overlapped = cache.begin();
    cache.invalidate('bo');
    cache.put('ana', overlapped, state());
    expect(cache.get('ana', now)).toBeUndefined();
    const lost = cache.begin();
    cache.setListening(false);
    cache.setListening(true);
    cache.put('ana', lost, state());
    expect(cache.get('ana', now)).toBeUndefined();
  });

  it("drops a subject's state on its change, and every state on a change without a subject", () => {
    const { cache } = listeningCache();
    cache.put('ana', cache.begin(), state());
    cache.put('bo', cache.begin(), state());
    cache.invalidate('ana');
    expect(cache.get('ana', now)).toBeUndefined();
    expect(cache.get('bo', now)).toBeDefined();
    cache.invalidate(undefined);
    expect(cache.get('bo', now)).toBeUndefined();
  });

  it('leaves out rate limits that ended by the time of the read, and narrows to the connectors asked for', () => {
    const { cache } = listeningCache();
    cache.put('ana', cache.begin(), state());
    expect(cache.get('ana', now)?.rateLimitedUntil).toEqual({ github: '2026-11-27T10:05:00.000Z' });
    expect(cache.get('ana', '2026-11-27T10:06:00.000Z')?.rateLimitedUntil).toEqual({});
    const narrowed = cache.get('ana', now, ['slack', 'jira']);
    expect(narrowed?.connections.map((connection) => connection.connectorId)).toEqual(['slack']);
    expect(narrowed?.disabledConnectorIds).toEqual(['jira']);
    expect(narrowed?.rateLimitedUntil).toEqual({});
  });

  it('uses a state for at most its maximum age, counted from when its read was sent', () => {
    const { cache, advance } = listeningCache();
    const token = cache.begin();
    advance(1500);
    cache.put('ana', token, state());
    advance(500);
    expect(cache.get('ana', now)).toBeDefined();
    advance(1);
    expect(cache.get('ana', now)).toBeUndefined();
  });

  it('hands out copies: changing what it returned or what it was given changes nothing kept', () => {
    const { cache } = listeningCache();
    const given = state();
    cache.put('ana', cache.begin(), given);
    given.connections[0]!.scopes.push('admin');
    given.disabledConnectorIds.push('github');
    const first = cache.get('ana', now)!;
    (first.connections[0]!.credentials as Record<string, string>).token = 'changed';
    first.connections.pop();
    const second = cache.get('ana', now)!;
    expect(second.connections).toHaveLength(2);
    expect(second.connections[0]).toEqual({
      connectorId: 'github',
      credentials: { token: 'gh' },
      scopes: ['repo'],
    });
    expect(second.disabledConnectorIds).toEqual(['jira']);
  });

  it('keeps at most its limit of subjects, dropping the least recently used', () => {
    const { cache } = listeningCache(2);
    cache.put('ana', cache.begin(), state());
    cache.put('bo', cache.begin(), state());
    cache.get('ana', now);
    cache.put('cy', cache.begin(), state());
    expect(cache.get('bo', now)).toBeUndefined();
    expect(cache.get('ana', now)).toBeDefined();
    expect(cache.get('cy', now)).toBeDefined();
  });
});
