import { HttpError } from '@patchbay/envelope';
import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { accountUrl, callSmsTool } from './fixtures/call-sms-tool.js';
import {
  internalError,
  invalidFromNumber,
  invalidToNumber,
  sendMessageResponse,
  tooManyRequests,
  unsubscribedRecipient,
  unverifiedRecipient,
} from './fixtures/sms-responses.js';
import { mapSmsError } from './sms-errors.js';

const server = createTestServer({ [`POST ${accountUrl}/Messages.json`]: sendMessageResponse });

const text = { to: '+14155550123', from: '+14155552345', body: 'Your table is ready' };

describe('Twilio error signals', () => {
  it('turns 21211 (invalid To) into needs_input asking the user for a valid number', async () => {
    server.use({ [`POST ${accountUrl}/Messages.json`]: invalidToNumber });
    const envelope = await callSmsTool('sms_send', { ...text, to: '+1555012' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      connector: 'sms',
      missing: [{ field: 'to', question: expect.stringMatching(/country code/) }],
    });
    expect(envelope.ok === false && envelope.user_message).toMatch(/Invalid 'To' Phone Number/);
  });

  it('turns 21606 (unusable From) into invalid_arguments pointing at sms_list_phone_numbers', async () => {
    server.use({ [`POST ${accountUrl}/Messages.json`]: invalidFromNumber });
    const envelope = await callSmsTool('sms_send', text);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
      issues: [{ path: 'from', message: expect.stringMatching(/sms_list_phone_numbers/) }],
    });
  });

  it('turns 21608 (trial account, unverified number) into permission_denied', async () => {
    server.use({ [`POST ${accountUrl}/Messages.json`]: unverifiedRecipient });
    const envelope = await callSmsTool('sms_send', text);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      setup_url: 'https://console.twilio.com/',
    });
    expect(envelope.ok === false && envelope.user_message).toMatch(/Trial accounts/);
  });

  it('turns 21610 (recipient replied STOP) into conflict, not a retry', async () => {
    server.use({ [`POST ${accountUrl}/Messages.json`]: unsubscribedRecipient });
    const envelope = await callSmsTool('sms_send', text);
    expect(envelope).toMatchObject({ ok: false, error_type: 'conflict', retryable: false });
    expect(envelope.ok === false && envelope.user_message).toMatch(/opted out/);
  });

  it('gives a 429 without Retry-After a one-second wait', async () => {
    server.use({ [`POST ${accountUrl}/Messages.json`]: tooManyRequests });
    const envelope = await callSmsTool('sms_send', text);
    expect(envelope).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 1 });
  });

  it('keeps a Retry-After Twilio does send', async () => {
    server.use({
      [`POST ${accountUrl}/Messages.json`]: { ...tooManyRequests, headers: { 'retry-after': '7' } },
    });
    const envelope = await callSmsTool('sms_send', text);
    expect(envelope).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 7 });
  });

  it('leaves errors without a code of their own to the generic HTTP mapping', () => {
    const server500 = new HttpError({ status: 500, body: internalError.body });
    expect(mapSmsError(server500)).toBe(server500);
    const plain = new HttpError({ status: 502, body: '<html>Bad gateway</html>' });
    expect(mapSmsError(plain)).toBe(plain);
  });
});
