import type { SubjectState } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { displayIdentity } from './credential-values.js';
import { bindConnectionsToOrigins, originMismatch } from './origin-binding.js';

const github = { id: 'github', origin: 'https://api.github.com', defaultOrigin: 'https://api.github.com' };
const moved = { ...github, origin: 'https://x.example' };

function state(verifiedOrigin?: string): SubjectState {
  return {
    connections: [
      { connectorId: 'github', credentials: { token: 'ghp_secret' }, scopes: ['repo'], verifiedOrigin },
    ],
    disabledConnectorIds: [],
    rateLimitedUntil: {},
  };
}

describe('originMismatch', () => {
  it('accepts a connection verified against the configured origin', () => {
    expect(originMismatch(github, { verifiedOrigin: 'https://api.github.com' })).toBeUndefined();
  });

  it('says where the credentials were verified and where the connector now points', () => {
    expect(originMismatch(moved, { verifiedOrigin: 'https://api.github.com' })).toBe(
      'These credentials were verified against https://api.github.com, and github is now configured for https://x.example; connect again.',
    );
  });

  it('takes a connection stored before origins were recorded as verified against the default origin', () => {
    expect(originMismatch(github, {})).toBeUndefined();
    expect(originMismatch(moved, {})).toMatch(/verified against https:\/\/api\.github\.com/);
    // No default to assume (a connector that needs a site): connect again.
    expect(originMismatch({ id: 'jira', origin: 'https://acme.atlassian.net' }, {})).toMatch(
      /stored without the address/,
    );
  });

  it('does not bind connectors that declare no origin', () => {
    expect(originMismatch({ id: 'demo' }, { verifiedOrigin: 'https://elsewhere.example' })).toBeUndefined();
  });
});

describe('bindConnectionsToOrigins', () => {
  it('strips the credentials of a connection verified elsewhere and records why', () => {
    const bound = bindConnectionsToOrigins(state('https://api.github.com'), [moved]);
    expect(bound.connections[0]).toMatchObject({ credentials: {}, scopes: [] });
    expect(bound.connections[0]!.credentialError).toMatch(/connect again/);
    expect(JSON.stringify(bound)).not.toContain('ghp_secret');
  });

  it('keeps a refusal already recorded as the reason, and still withholds the credentials', () => {
    const refused = state();
    refused.connections[0]!.credentialError = 'The service rejected the token (revoked).';
    const bound = bindConnectionsToOrigins(refused, [{ id: 'github', origin: 'https://x.example' }]);
    expect(bound.connections[0]).toMatchObject({
      credentials: {},
      scopes: [],
      credentialError: 'The service rejected the token (revoked).',
    });
  });

  it('returns the same state when every connection matches', () => {
    const original = state('https://api.github.com');
    expect(bindConnectionsToOrigins(original, [github])).toBe(original);
  });
});

describe('displayIdentity', () => {
  const credentials = { token: 'ghp_0123456789abcdefghij0123', site: 'acme' };

  it('keeps an ordinary identity', () => {
    expect(displayIdentity(' octocat ', credentials, ['token'])).toBe('octocat');
  });

  it.each([
    'ghp_0123456789abcdefghij0123',
    'octocat (token ghp_0123456789abcdefghij0123)',
    'GHP_0123456789ABCDEFGHIJ0123',
    'ghp_0123456789ab…',
  ])('drops an identity that holds the token or a run of it: %s', (identity) => {
    expect(displayIdentity(identity, credentials, ['token'])).toBeUndefined();
  });

  it('drops what is not a short single line', () => {
    expect(displayIdentity('a\nb', credentials)).toBeUndefined();
    expect(displayIdentity('x'.repeat(201), credentials)).toBeUndefined();
    expect(displayIdentity(42, credentials)).toBeUndefined();
  });

  it('checks every value when the secret fields are not known', () => {
    expect(displayIdentity('acme-admin', { site: 'acme-admin' })).toBeUndefined();
    expect(displayIdentity('acme-admin', { site: 'acme-admin' }, [])).toBe('acme-admin');
  });
});
