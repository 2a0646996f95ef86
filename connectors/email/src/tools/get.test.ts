import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callEmailTool } from '../fixtures/call-email-tool.js';
import {
  emailNotFound,
  getEmailResponse,
  restrictedApiKey,
  sentEmailId,
} from '../fixtures/email-responses.js';

const server = createTestServer({
  'GET https://api.resend.com/emails/:id': getEmailResponse,
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
