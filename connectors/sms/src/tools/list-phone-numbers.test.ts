import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { accountUrl, callSmsTool } from '../fixtures/call-sms-tool.js';
import { listPhoneNumbersResponse } from '../fixtures/sms-responses.js';

const server = createTestServer({
  [`GET ${accountUrl}/IncomingPhoneNumbers.json`]: listPhoneNumbersResponse,
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
