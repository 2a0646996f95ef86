import { createTestServer, findSecretLeaks } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { accountUrl, basicAuthorization, credentials } from './fixtures/call-sms-tool.js';
import {
  accountResponse,
  authenticationError,
  authToken,
  notFoundError,
  tooManyRequests,
} from './fixtures/sms-responses.js';
import { createSms, sms } from './sms-connector.js';

const server = createTestServer({ [`GET ${accountUrl}.json`]: accountResponse() });

describe('sms verify', () => {
  it('fetches the account and reports it valid with no scopes (Twilio has none)', async () => {
    const result = await sms.verify(credentials);
    expect(result).toEqual({ valid: true, scopes: [], identity: 'Acme Support' });
    expect(server.calls[0]?.headers.authorization).toBe(basicAuthorization);
  });

  it('never passes on the auth token the Account resource echoes', async () => {
    const result = await sms.verify(credentials);
    expect(findSecretLeaks(result, [authToken])).toEqual([]);
  });

  it('marks a trial account in the identity', async () => {
    server.use({ [`GET ${accountUrl}.json`]: accountResponse({ type: 'Trial' }) });
    await expect(sms.verify(credentials)).resolves.toMatchObject({
      valid: true,
      identity: 'Acme Support (trial)',
    });
  });

  it('reports a revoked token (401, code 20003) as invalid_credentials', async () => {
    server.use({ [`GET ${accountUrl}.json`]: authenticationError });
    await expect(sms.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('reports a suspended account as invalid_credentials, saying so', async () => {
    server.use({ [`GET ${accountUrl}.json`]: accountResponse({ status: 'suspended' }) });
    await expect(sms.verify(credentials)).resolves.toEqual({
      valid: false,
      reason: 'invalid_credentials',
      message: 'The Twilio account is suspended; it cannot send or read messages.',
    });
  });

  it('reports an Account SID these credentials do not reach (404) as invalid_credentials', async () => {
    server.use({ [`GET ${accountUrl}.json`]: notFoundError });
    await expect(sms.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_credentials',
    });
  });

  it('reports 20429 as rate_limited with a wait', async () => {
    server.use({ [`GET ${accountUrl}.json`]: tooManyRequests });
    await expect(sms.verify(credentials)).resolves.toMatchObject({
      valid: false,
      reason: 'rate_limited',
      retryAfterS: 1,
    });
  });

  it('verifies against baseUrl', async () => {
    const edge = 'https://api.sydney.au1.twilio.com';
    server.use({ [`GET ${edge}/2010-04-01/Accounts/${credentials.account_sid}.json`]: accountResponse() });
    await expect(createSms({ baseUrl: edge }).verify(credentials)).resolves.toMatchObject({ valid: true });
    expect(server.calls[0]?.url).toBe(`${edge}/2010-04-01/Accounts/${credentials.account_sid}.json`);
  });
});
