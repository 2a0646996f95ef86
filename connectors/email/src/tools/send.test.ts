import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createEmail } from '../email-connector.js';
import { callEmailTool } from '../fixtures/call-email-tool.js';
import {
  dailyQuotaExceeded,
  invalidToField,
  rateLimitExceeded,
  sendEmailResponse,
  sentEmailId,
  unverifiedDomain,
} from '../fixtures/email-responses.js';

const server = createTestServer({ 'POST https://api.resend.com/emails': sendEmailResponse });

const message = {
  from: 'Acme <hello@acme.com>',
  to: ['ada@example.com', 'grace@example.com'],
  subject: 'Your invoice',
  text: 'Invoice attached.',
};

describe('email_send', () => {
  it('posts the email to /emails with the bearer key and returns its id', async () => {
    const envelope = await callEmailTool('email_send', {
      ...message,
      html: '<p>Invoice attached.</p>',
      cc: 'billing@acme.com',
      reply_to: 'support@acme.com',
    });
    expect(envelope.ok && envelope.data).toEqual({
      id: sentEmailId,
      to: message.to,
      subject: 'Your invoice',
    });
    expect(server.calls).toHaveLength(1);
    const [call] = server.calls;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe('https://api.resend.com/emails');
    expect(call?.headers.authorization).toBe('Bearer re_test_0000000000000000');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual({
      from: 'Acme <hello@acme.com>',
      to: ['ada@example.com', 'grace@example.com'],
      subject: 'Your invoice',
      text: 'Invoice attached.',
      html: '<p>Invoice attached.</p>',
      cc: ['billing@acme.com'],
      reply_to: ['support@acme.com'],
    });
  });

  it('sends one recipient as a list, a schedule and an idempotency key', async () => {
    const envelope = await callEmailTool('email_send', {
      ...message,
      to: 'ada@example.com',
      scheduled_at: 'in 1 hour',
      idempotency_key: 'invoice-42',
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: { to: ['ada@example.com'], scheduled_at: 'in 1 hour' },
    });
    expect(server.calls[0]?.body).toMatchObject({ to: ['ada@example.com'], scheduled_at: 'in 1 hour' });
    expect(server.calls[0]?.headers['idempotency-key']).toBe('invoice-42');
  });

  it('asks who should receive it when `to` is missing, without a request', async () => {
    const { to: _to, ...withoutRecipients } = message;
    const envelope = await callEmailTool('email_send', withoutRecipients);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'to', question: 'Who should receive the email?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('asks what the email should say when it has neither text nor html, without a request', async () => {
    const { text: _text, ...withoutBody } = message;
    const envelope = await callEmailTool('email_send', withoutBody);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      connector: 'email',
      missing: [{ field: 'text', question: 'What should the email say?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('reports an unverified sending domain as permission_denied with Resend’s explanation', async () => {
    server.use({ 'POST https://api.resend.com/emails': unverifiedDomain });
    const envelope = await callEmailTool('email_send', message);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      setup_url: 'https://resend.com/api-keys',
    });
    expect(envelope.ok === false && envelope.user_message).toMatch(/domain is not verified/);
  });

  it('reports a malformed address as invalid_arguments naming the field', async () => {
    server.use({ 'POST https://api.resend.com/emails': invalidToField });
    const envelope = await callEmailTool('email_send', message);
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments', retryable: false });
    expect(envelope.ok === false && envelope.user_message).toMatch(/Invalid `to` field/);
  });

  it('reports rate_limit_exceeded with the wait from retry-after', async () => {
    server.use({ 'POST https://api.resend.com/emails': rateLimitExceeded });
    const envelope = await callEmailTool('email_send', message);
    expect(envelope).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 1 });
  });

  it('reports a used-up daily quota as rate_limited, saying it is the quota', async () => {
    server.use({ 'POST https://api.resend.com/emails': dailyQuotaExceeded });
    const envelope = await callEmailTool('email_send', message);
    expect(envelope).toMatchObject({ ok: false, error_type: 'rate_limited', connector: 'email' });
    expect(envelope.ok === false && envelope.user_message).toMatch(/daily sending quota/);
  });

  it('honours baseUrl, extra headers and a custom fetch', async () => {
    const seen: string[] = [];
    server.use({ 'POST https://proxy.test/resend/emails': sendEmailResponse });
    const proxied = createEmail({
      baseUrl: 'https://proxy.test/resend/',
      headers: { 'x-proxy-tenant': 'acme' },
      fetch: (input, init) => {
        seen.push(String(input));
        return globalThis.fetch(input, init);
      },
    });
    const envelope = await callEmailTool('email_send', message, { connector: proxied });
    expect(envelope).toMatchObject({ ok: true, data: { id: sentEmailId } });
    expect(seen).toEqual(['https://proxy.test/resend/emails']);
    expect(server.calls[0]?.headers['x-proxy-tenant']).toBe('acme');
  });
});
