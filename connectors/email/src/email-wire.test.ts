// The Resend SDK's own wire-format types (`resend`: EmailApiOptions is the JSON body it sends to
// POST /emails, PaginationOptions the list query) as the oracle for this connector's requests.
// tsc checks the field tables against them; the tests check every request stays inside the tables.
import { createTestServer, type RecordedRequest } from '@patchbay/testing';
import type { EmailApiOptions, PaginationOptions } from 'resend';
import { describe, expect, it } from 'vitest';
import { email } from './email-connector.js';
import { callEmailTool, credentials } from './fixtures/call-email-tool.js';
import {
  getEmailResponse,
  listDomainsResponse,
  listEmailsResponse,
  sendBatchResponse,
  sendEmailResponse,
  sentEmailId,
} from './fixtures/email-responses.js';

type FieldNames<T> = T extends unknown ? keyof T : never;
/** Some of the field names the SDK's types define; a name Resend does not know fails tsc. */
type Names<T> = Partial<Record<FieldNames<T>, true>>;
const messageFields: Record<string, true> = {
  from: true,
  to: true,
  subject: true,
  text: true,
  html: true,
  cc: true,
  bcc: true,
  reply_to: true,
  scheduled_at: true,
} satisfies Names<EmailApiOptions>;
const listQuery: Record<string, true> = { limit: true, after: true } satisfies Names<PaginationOptions>;

const api = 'https://api.resend.com';
const server = createTestServer({
  [`POST ${api}/emails`]: sendEmailResponse,
  [`POST ${api}/emails/batch`]: sendBatchResponse,
  [`GET ${api}/emails/:id`]: getEmailResponse,
  [`GET ${api}/emails`]: listEmailsResponse,
  [`GET ${api}/domains`]: listDomainsResponse,
});

function expectDescribed(calls: readonly RecordedRequest[]) {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(Object.keys(call.searchParams).filter((name) => !listQuery[name])).toEqual([]);
    const bodies = Array.isArray(call.body) ? call.body : call.body ? [call.body] : [];
    for (const body of bodies as Record<string, unknown>[]) {
      expect(Object.keys(body).filter((name) => !messageFields[name])).toEqual([]);
    }
  }
}

const message = { from: 'Acme <hello@acme.com>', to: 'ada@example.com', subject: 'Hi', text: 'Hello' };
const toolCalls: [string, Record<string, unknown>][] = [
  [
    'email_send',
    {
      ...message,
      html: '<p>Hello</p>',
      cc: 'a@example.com',
      bcc: 'b@example.com',
      reply_to: 'c@example.com',
      scheduled_at: 'in 1 hour',
    },
  ],
  ['email_send_batch', { emails: [message, { ...message, to: 'grace@example.com' }] }],
  ['email_get', { id: sentEmailId }],
  ['email_list_sent', { limit: 5, after: sentEmailId }],
  ['email_list_domains', { limit: 5 }],
];

describe('Resend requests against the Resend SDK’s wire format', () => {
  it.each(toolCalls)('%s sends only fields the SDK sends', async (name, input) => {
    expect(await callEmailTool(name, input)).toMatchObject({ ok: true });
    expectDescribed(server.calls);
  });

  it('verify() lists domains with no fields the SDK does not send', async () => {
    await email.verify(credentials);
    expectDescribed(server.calls);
  });
});
