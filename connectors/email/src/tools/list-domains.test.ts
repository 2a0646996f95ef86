import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callEmailTool } from '../fixtures/call-email-tool.js';
import { listDomainsResponse, restrictedApiKey } from '../fixtures/email-responses.js';

const server = createTestServer({
  'GET https://api.resend.com/domains': listDomainsResponse,
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
