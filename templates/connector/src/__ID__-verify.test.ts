import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { __id__ } from './__ID__-connector.js';
import { me, testCredentials, unauthorized } from './fixtures/__ID__-responses.js';

const meUrl = 'GET https://api.__ID__.example/me';
const server = createTestServer({ [meUrl]: me });

describe('__ID__ verify', () => {
  it('names the account and reports the scopes the token was granted', async () => {
    await expect(__id__.verify(testCredentials)).resolves.toEqual({
      valid: true,
      scopes: ['items:read'],
      identity: 'Ada',
    });
    expect(server.calls[0]?.headers.authorization).toBe(`Bearer ${testCredentials.token}`);
  });

  it('reports revoked credentials as invalid, without the token', async () => {
    server.use({ [meUrl]: unauthorized });
    const result = await __id__.verify(testCredentials);
    expect(result).toMatchObject({ valid: false, reason: 'invalid_credentials' });
    expect(JSON.stringify(result)).not.toContain(testCredentials.token);
  });
});
