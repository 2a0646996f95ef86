import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { accountUrl, basicAuthorization, callSmsTool } from '../fixtures/harness.js';
import {
  getMessageResponse,
  listMessagesResponse,
  listPhoneNumbersResponse,
  messageSid,
  notFoundError,
} from '../fixtures/twilio.js';

const server = createTestServer({
  [`GET ${accountUrl}/Messages/:sid`]: getMessageResponse,
  [`GET ${accountUrl}/Messages.json`]: listMessagesResponse,
  [`GET ${accountUrl}/IncomingPhoneNumbers.json`]: listPhoneNumbersResponse,
});

describe('sms_get_message', () => {
  it('reads one message by SID with its delivery status and price', async () => {
    const envelope = await callSmsTool('sms_get_message', { sid: messageSid });
    expect(envelope).toMatchObject({
      ok: true,
      data: { sid: messageSid, status: 'delivered', price: '-0.00790', price_unit: 'USD' },
    });
    const [call] = server.calls;
    expect(call?.method).toBe('GET');
    expect(call?.url).toBe(`${accountUrl}/Messages/${messageSid}.json`);
    expect(call?.headers.authorization).toBe(basicAuthorization);
  });

  it('reports 20404 as not_found', async () => {
    server.use({ [`GET ${accountUrl}/Messages/:sid`]: notFoundError });
    const envelope = await callSmsTool('sms_get_message', { sid: messageSid });
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found', connector: 'sms' });
  });

  it('rejects something that is not a message SID before any request', async () => {
    const envelope = await callSmsTool('sms_get_message', { sid: '../../Calls' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments', issues: [{ path: 'sid' }] });
    expect(server.calls).toHaveLength(0);
  });
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

describe('sms_list_phone_numbers', () => {
  it('lists the account’s numbers with their SMS capability', async () => {
    const envelope = await callSmsTool('sms_list_phone_numbers', { contains: '415' });
    expect(envelope.ok && envelope.data).toEqual({
      has_more: false,
      phone_numbers: [
        {
          sid: 'PN2a0747eba6abf96b7e3c3ff0b4530f6e',
          phone_number: '+14155552345',
          friendly_name: '(415) 555-2345',
          sms: true,
          mms: true,
        },
        {
          sid: 'PN3b1858fcb7bcf07c8f4d4ee1c5641a7f',
          phone_number: '+442071838750',
          friendly_name: 'Voice line',
          sms: false,
          mms: false,
        },
      ],
    });
    expect(server.calls[0]?.searchParams).toEqual({ PhoneNumber: '415', PageSize: '20' });
  });
});
