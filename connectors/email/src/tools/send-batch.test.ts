import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callEmailTool } from '../fixtures/call-email-tool.js';
import { invalidToField, sendBatchResponse } from '../fixtures/email-responses.js';

const server = createTestServer({ 'POST https://api.resend.com/emails/batch': sendBatchResponse });

const emails = [
  { from: 'hello@acme.com', to: 'ada@example.com', subject: 'Hi Ada', text: 'Hello Ada' },
  { from: 'hello@acme.com', to: ['grace@example.com'], subject: 'Hi Grace', html: '<p>Hello Grace</p>' },
];

describe('email_send_batch', () => {
  it('posts every email as one JSON array and pairs the ids with the recipients', async () => {
    const envelope = await callEmailTool('email_send_batch', { emails, idempotency_key: 'welcome-batch' });
    expect(envelope.ok && envelope.data).toEqual({
      sent: [
        { id: 'ae2014de-c168-4c61-8267-70d2662a1ce1', to: ['ada@example.com'], subject: 'Hi Ada' },
        { id: 'faccb7a5-8a28-4e9a-ac64-8da1cc3bc1cb', to: ['grace@example.com'], subject: 'Hi Grace' },
      ],
    });
    const [call] = server.calls;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe('https://api.resend.com/emails/batch');
    expect(call?.headers.authorization).toBe('Bearer re_test_0000000000000000');
    expect(call?.headers['idempotency-key']).toBe('welcome-batch');
    expect(call?.body).toEqual([
      { from: 'hello@acme.com', to: ['ada@example.com'], subject: 'Hi Ada', text: 'Hello Ada' },
      { from: 'hello@acme.com', to: ['grace@example.com'], subject: 'Hi Grace', html: '<p>Hello Grace</p>' },
    ]);
  });

  it('asks for the body of the email that has none, without a request', async () => {
    const envelope = await callEmailTool('email_send_batch', {
      emails: [emails[0], { from: 'hello@acme.com', to: 'x@example.com', subject: 'Empty' }],
    });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'emails.1.text', question: 'What should the email say? (email 2)' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('asks which emails to send when the list is missing', async () => {
    const envelope = await callEmailTool('email_send_batch', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'emails', question: 'Which emails should I send, and to whom?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('rejects more than 100 emails before sending anything', async () => {
    const envelope = await callEmailTool('email_send_batch', { emails: Array(101).fill(emails[0]) });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });

  it('maps a validation error for the batch to invalid_arguments', async () => {
    server.use({ 'POST https://api.resend.com/emails/batch': invalidToField });
    const envelope = await callEmailTool('email_send_batch', { emails });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
  });
});
