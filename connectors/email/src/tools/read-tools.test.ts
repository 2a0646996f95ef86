import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callEmailTool } from '../fixtures/harness.js';
import {
  emailNotFound,
  getEmailResponse,
  listDomainsResponse,
  listEmailsResponse,
  restrictedApiKey,
  sentEmailId,
} from '../fixtures/resend.js';

const server = createTestServer({
  'GET https://api.resend.com/emails/:id': getEmailResponse,
  'GET https://api.resend.com/emails': listEmailsResponse,
  'GET https://api.resend.com/domains': listDomainsResponse,
});

describe('email_get', () => {
  it('reads one email by id with its last delivery event and body', async () => {
    const envelope = await callEmailTool('email_get', { id: sentEmailId });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        id: sentEmailId,
        from: 'Acme <onboarding@resend.dev>',
        to: ['delivered@resend.dev'],
        subject: 'Your invoice',
        last_event: 'delivered',
        text: 'Invoice attached.',
      },
    });
    const [call] = server.calls;
    expect(call?.method).toBe('GET');
    expect(call?.url).toBe(`https://api.resend.com/emails/${sentEmailId}`);
    expect(call?.headers.authorization).toBe('Bearer re_test_0000000000000000');
  });

  it('reports an unknown id as not_found', async () => {
    server.use({ 'GET https://api.resend.com/emails/:id': emailNotFound });
    const envelope = await callEmailTool('email_get', { id: 'nope' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found', connector: 'email' });
  });

  it('reports a sending-only key as permission_denied naming emails:read', async () => {
    server.use({ 'GET https://api.resend.com/emails/:id': restrictedApiKey });
    const envelope = await callEmailTool('email_get', { id: sentEmailId });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['emails:read'],
      setup_url: 'https://resend.com/api-keys',
    });
  });

  it('asks which email is meant when the id is missing', async () => {
    const envelope = await callEmailTool('email_get', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'id', question: 'Which sent email do you mean?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});

describe('email_list_sent', () => {
  it('lists sent emails with limit and cursor, without their bodies', async () => {
    const envelope = await callEmailTool('email_list_sent', { limit: 2, after: 'cursor-id' });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        has_more: true,
        emails: [
          { id: sentEmailId, last_event: 'delivered' },
          { to: ['bounced@resend.dev'], last_event: 'bounced' },
        ],
      },
    });
    expect(JSON.stringify(envelope)).not.toContain('Invoice attached.');
    expect(server.calls[0]?.searchParams).toEqual({ limit: '2', after: 'cursor-id' });
  });

  it('asks Resend for 20 by default', async () => {
    await callEmailTool('email_list_sent', {});
    expect(server.calls[0]?.searchParams).toEqual({ limit: '20' });
  });
});

describe('email_list_domains', () => {
  it('lists domains with their verification status', async () => {
    const envelope = await callEmailTool('email_list_domains', {});
    expect(envelope.ok && envelope.data).toEqual({
      has_more: false,
      domains: [
        {
          id: 'd91cd9bd-1176-453e-8fc1-35364d380206',
          name: 'acme.com',
          status: 'verified',
          region: 'us-east-1',
          sending: 'enabled',
        },
        {
          id: 'e169aa45-1ecf-4183-9955-b1499d5701d3',
          name: 'mail.acme.dev',
          status: 'not_started',
          region: 'eu-west-1',
          sending: 'enabled',
        },
      ],
    });
    expect(server.calls[0]?.url).toBe('https://api.resend.com/domains?limit=20');
  });

  it('reports a sending-only key as permission_denied naming domains:read', async () => {
    server.use({ 'GET https://api.resend.com/domains': restrictedApiKey });
    const envelope = await callEmailTool('email_list_domains', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['domains:read'],
    });
  });
});
