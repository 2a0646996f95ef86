import { HttpError } from '@patchbay/envelope';
import { createTestServer, type ResponseSpec } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { email } from './email-connector.js';
import { mapEmailError, resendErrorName } from './email-errors.js';
import { callEmailTool, credentials } from './fixtures/call-email-tool.js';
import {
  dailyQuotaExceeded,
  emailNotFound,
  invalidApiKey,
  missingApiKey,
  monthlyQuotaExceeded,
  rateLimitExceeded,
  restrictedApiKey,
} from './fixtures/email-responses.js';

const server = createTestServer();
const errorOf = (response: ResponseSpec) =>
  new HttpError({ status: response.status ?? 200, headers: response.headers, body: response.body });
const listSent = { path: '/emails', requiredScopes: ['emails:read'] } as const;

describe('Resend error signals', () => {
  it('re-states a wrong or missing key as 401, whatever status Resend used', () => {
    for (const response of [invalidApiKey, missingApiKey]) {
      const mapped = mapEmailError(errorOf(response), listSent);
      expect(mapped).toMatchObject({ status: 401, body: response.body });
    }
  });

  it('re-states a sending-only key used for more as 403 naming the call’s requiredScopes', () => {
    expect(mapEmailError(errorOf(restrictedApiKey), listSent)).toMatchObject({
      status: 403,
      missingScopes: ['emails:read'],
    });
    expect(
      (mapEmailError(errorOf(restrictedApiKey), { path: '/emails' }) as HttpError).missingScopes,
    ).toBeUndefined();
  });

  it('names a used-up quota instead of a per-second limit, and leaves other errors alone', () => {
    const quota = mapEmailError(errorOf(dailyQuotaExceeded), {
      path: '/emails',
      requiredScopes: ['emails:send'],
    });
    expect(quota).toMatchObject({ ok: false, error_type: 'rate_limited', retryable: false });
    expect((quota as { user_message: string }).user_message).toContain('daily sending quota');
    const notFound = errorOf(emailNotFound);
    expect(mapEmailError(notFound, listSent)).toBe(notFound);
    expect(resendErrorName(notFound)).toBe('not_found');
    expect(resendErrorName(new Error('fetch failed'))).toBeUndefined();
  });

  it('turns a sending-only key on a read tool into permission_denied with the missing scope', async () => {
    server.use({ 'GET https://api.resend.com/emails': restrictedApiKey });
    expect(await callEmailTool('email_list_sent', {})).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['emails:read'],
    });
  });
});

// A used-up sending quota (daily or monthly): not a rate limit that lifts in seconds.
const send = () =>
  callEmailTool('email_send', {
    from: 'Acme <hello@acme.com>',
    to: 'ada@example.com',
    subject: 'Your invoice',
    text: 'Invoice attached.',
  });

describe('a used-up Resend sending quota', () => {
  it('is not retryable: waiting seconds does not bring the quota back', async () => {
    server.use({ 'POST https://api.resend.com/emails': dailyQuotaExceeded });
    const envelope = await send();
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'rate_limited',
      retryable: false,
      connector: 'email',
    });
    expect(envelope).not.toHaveProperty('retry_after_s');
    expect((envelope as { user_message: string }).user_message).toMatch(/daily sending quota.*tomorrow/);
  });

  it('names the monthly quota when that is the one used up', async () => {
    server.use({ 'POST https://api.resend.com/emails': monthlyQuotaExceeded });
    const envelope = await send();
    expect(envelope).toMatchObject({ error_type: 'rate_limited', retryable: false });
    expect((envelope as { user_message: string }).user_message).toMatch(/monthly sending quota.*next month/);
  });

  it('leaves the per-second limit retryable with its wait', async () => {
    server.use({ 'POST https://api.resend.com/emails': rateLimitExceeded });
    expect(await send()).toMatchObject({ error_type: 'rate_limited', retryable: true, retry_after_s: 1 });
  });

  it('makes verify say the quota is used up, not that Resend could not be reached', async () => {
    server.use({ 'GET https://api.resend.com/domains': dailyQuotaExceeded });
    const result = await email.verify(credentials);
    expect(result).toMatchObject({ valid: false, reason: 'rate_limited' });
    expect((result as { message: string }).message).toContain('daily sending quota');
  });
});
