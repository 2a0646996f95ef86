import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callEmailTool } from '../fixtures/call-email-tool.js';
import { listEmailsResponse, sentEmailId } from '../fixtures/email-responses.js';

const server = createTestServer({
  'GET https://api.resend.com/emails': listEmailsResponse,
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
