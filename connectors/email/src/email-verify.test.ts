import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createEmail, email } from './email-connector.js';
import { credentials } from './fixtures/call-email-tool.js';
import {
  invalidApiKey,
  listDomainsResponse,
  missingApiKey,
  rateLimitExceeded,
  restrictedApiKey,
} from './fixtures/email-responses.js';

const server = createTestServer({ 'GET https://api.resend.com/domains': listDomainsResponse });

describe('email verify', () => {
  it('reports a full-access key with every scope and the account’s domains', async () => {
    await expect(email.verify(credentials)).resolves.toEqual({
      valid: true,
      scopes: ['emails:send', 'emails:read', 'domains:read'],
      identity: 'acme.com, mail.acme.dev',
    });
    expect(server.calls[0]?.headers.authorization).toBe('Bearer re_test_0000000000000000');
  });

  it('reports a sending-only key as valid with emails:send alone', async () => {
    server.use({ 'GET https://api.resend.com/domains': restrictedApiKey });
    await expect(email.verify(credentials)).resolves.toEqual({ valid: true, scopes: ['emails:send'] });
  });

  it('reports a revoked key (403 invalid_api_key) as invalid_credentials', async () => {
    server.use({ 'GET https://api.resend.com/domains': invalidApiKey });
    await expect(email.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('reports a missing key (401 missing_api_key) as invalid_credentials', async () => {
    server.use({ 'GET https://api.resend.com/domains': missingApiKey });
    await expect(email.verify({ token: '' })).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('reports rate limiting with the wait', async () => {
    server.use({ 'GET https://api.resend.com/domains': rateLimitExceeded });
    await expect(email.verify(credentials)).resolves.toEqual({
      valid: false,
      reason: 'rate_limited',
      message: expect.any(String),
      retryAfterS: 1,
    });
  });

  it('verifies against baseUrl', async () => {
    server.use({ 'GET https://proxy.test/domains': listDomainsResponse });
    const proxied = createEmail({ baseUrl: 'https://proxy.test' });
    await expect(proxied.verify(credentials)).resolves.toMatchObject({ valid: true });
    expect(server.calls[0]?.url).toBe('https://proxy.test/domains');
  });
});
