import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { accountUrl, basicAuthorization, callSmsTool, credentials } from '../fixtures/call-sms-tool.js';
import { accountSid, messageSid, sendMessageResponse } from '../fixtures/sms-responses.js';
import { createSms } from '../sms-connector.js';

const server = createTestServer({ [`POST ${accountUrl}/Messages.json`]: sendMessageResponse });

const text = { to: '+14155550123', from: '+14155552345', body: 'Your table is ready' };

describe('sms_send', () => {
  it('posts a form-encoded message to Messages.json with Basic auth', async () => {
    const envelope = await callSmsTool('sms_send', text);
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        sid: messageSid,
        to: '+14155550123',
        from: '+14155552345',
        body: 'Your table is ready',
        status: 'queued',
        num_segments: 1,
        error_code: null,
      },
    });
    expect(server.calls).toHaveLength(1);
    const [call] = server.calls;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe(`${accountUrl}/Messages.json`);
    expect(call?.headers.authorization).toBe(basicAuthorization);
    expect(call?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(call?.body as string).toString()).toBe(
      'To=%2B14155550123&From=%2B14155552345&Body=Your+table+is+ready',
    );
  });

  it('sends through a Messaging Service with media instead of a From number', async () => {
    await callSmsTool('sms_send', {
      to: '+14155550123',
      body: 'Menu attached',
      messaging_service_sid: 'MG9752274e9e519418a7406176694466fa',
      media_url: 'https://acme.example/menu.jpg',
    });
    expect(Object.fromEntries(new URLSearchParams(server.calls[0]?.body as string))).toEqual({
      To: '+14155550123',
      MessagingServiceSid: 'MG9752274e9e519418a7406176694466fa',
      Body: 'Menu attached',
      MediaUrl: 'https://acme.example/menu.jpg',
    });
  });

  it('authenticates with an API key SID when the credentials carry one, keeping the account in the path', async () => {
    const apiKeySid = 'SK00000000000000000000000000000000';
    await callSmsTool('sms_send', text, {
      credentials: { ...credentials, api_key_sid: apiKeySid, auth_token: 'api-key-secret' },
    });
    expect(server.calls[0]?.url).toBe(
      `https://api.twilio.com/2010-04-01/Accounts/${accountSid}/Messages.json`,
    );
    expect(server.calls[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${apiKeySid}:api-key-secret`).toString('base64')}`,
    );
  });

  it('asks for the recipient and the text when they are missing, without a request', async () => {
    const envelope = await callSmsTool('sms_send', { from: '+14155552345' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [
        { field: 'to', question: 'Which phone number should I text?' },
        { field: 'body', question: 'What should the text message say?' },
      ],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('asks which number to send from when neither from nor a Messaging Service is given', async () => {
    const envelope = await callSmsTool('sms_send', { to: '+14155550123', body: 'Hi' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      connector: 'sms',
      missing: [{ field: 'from', question: 'Which of your Twilio phone numbers should the text come from?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('honours baseUrl (a regional edge), extra headers and a custom fetch', async () => {
    const seen: string[] = [];
    const edge = 'https://api.dublin.ie1.twilio.com';
    server.use({ [`POST ${edge}/2010-04-01/Accounts/${accountSid}/Messages.json`]: sendMessageResponse });
    const regional = createSms({
      baseUrl: edge,
      headers: { 'x-trace': 'on' },
      fetch: (input, init) => {
        seen.push(String(input));
        return globalThis.fetch(input, init);
      },
    });
    const envelope = await callSmsTool('sms_send', text, { connector: regional });
    expect(envelope).toMatchObject({ ok: true, data: { sid: messageSid } });
    expect(seen).toEqual([`${edge}/2010-04-01/Accounts/${accountSid}/Messages.json`]);
    expect(server.calls[0]?.headers['x-trace']).toBe('on');
  });
});
