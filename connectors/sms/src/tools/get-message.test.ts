import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { accountUrl, basicAuthorization, callSmsTool } from '../fixtures/call-sms-tool.js';
import { getMessageResponse, messageSid, notFoundError } from '../fixtures/sms-responses.js';

const server = createTestServer({
  [`GET ${accountUrl}/Messages/:sid`]: getMessageResponse,
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
