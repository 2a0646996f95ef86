import { describe, expect, it } from 'vitest';
import { githubSetupUrl } from './github-connector.js';
import { parseGithubScopes } from './github-scopes.js';

describe('parseGithubScopes', () => {
  it('splits the header and adds implied scopes once', () => {
    expect(parseGithubScopes('admin:org, write:org')).toEqual([
      'admin:org',
      'manage_runners:org',
      'read:org',
      'write:org',
    ]);
  });

  it('keeps scopes it does not know', () => {
    expect(parseGithubScopes(' gist ,notifications')).toEqual(['gist', 'notifications']);
  });

  it('returns nothing for an empty header', () => {
    expect(parseGithubScopes('')).toEqual([]);
  });
});

describe('githubSetupUrl', () => {
  it('points github.com users at their token settings', () => {
    expect(githubSetupUrl()).toBe('https://github.com/settings/tokens');
  });

  it('points GitHub Enterprise Server users at their own host', () => {
    expect(githubSetupUrl('https://ghe.example.com:8443/api/v3')).toBe(
      'https://ghe.example.com:8443/settings/tokens',
    );
  });

  it('drops the api. prefix of GitHub Enterprise Cloud with data residency', () => {
    expect(githubSetupUrl('https://api.octocorp.ghe.com')).toBe('https://octocorp.ghe.com/settings/tokens');
  });
});
