import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { email } from './email-connector.js';
import { callEmailTool, credentials } from './fixtures/call-email-tool.js';
import { dailyQuotaExceeded, monthlyQuotaExceeded, rateLimitExceeded } from './fixtures/email-responses.js';

const server = createTestServer();
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
