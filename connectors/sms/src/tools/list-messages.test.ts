import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { accountUrl, callSmsTool } from '../fixtures/call-sms-tool.js';
import { listMessagesResponse, messageSid } from '../fixtures/sms-responses.js';

const server = createTestServer({
  [`GET ${accountUrl}/Messages.json`]: listMessagesResponse,
});

describe('sms_list_messages', () => {
  it('passes Twilio’s filters, including the DateSent inequalities, and summarises the page', async () => {
    const envelope = await callSmsTool('sms_list_messages', {
      to: '+14155552345',
      sent_on_or_after: '2026-11-01',
      sent_on_or_before: '2026-11-21',
      limit: 2,
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        has_more: true,
        messages: [
          { direction: 'inbound', body: 'Thanks!', status: 'received' },
          { sid: messageSid, status: 'delivered' },
        ],
      },
    });
    expect(server.calls[0]?.searchParams).toEqual({
      To: '+14155552345',
      'DateSent>': '2026-11-01',
      'DateSent<': '2026-11-21',
      PageSize: '2',
    });
  });

  it('rejects a day that is not YYYY-MM-DD', async () => {
    const envelope = await callSmsTool('sms_list_messages', { sent_on_or_after: 'last week' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });
});
