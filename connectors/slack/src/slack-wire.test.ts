// Slack's own argument types (@slack/web-api) as the oracle for every Web API call this connector
// makes. tsc checks the table below against them (each argument name must exist for its method);
// the tests check that every call the tools and verify() make is in the table.

import { createTestServer, type RecordedRequest } from '@patchbay/testing';
import type {
  AuthTestArguments,
  ChatDeleteArguments,
  ChatPostMessageArguments,
  ConversationsHistoryArguments,
  ConversationsListArguments,
  UsersLookupByEmailArguments,
} from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { callSlackTool, formBody, testToken } from './fixtures/call-slack-tool.js';
import {
  authTest,
  conversationsHistory,
  conversationsList,
  deletedMessage,
  postedMessage,
  slackHeaders,
  userByEmail,
} from './fixtures/slack-responses.js';
import { slack } from './slack-connector.js';

// Argument types are unions (e.g. text or blocks); every member's names count.
type ArgumentNames<T> = T extends unknown ? keyof T : never;
/** Some of the argument names Slack's types define; a name Slack does not know fails tsc. */
type Names<T> = Partial<Record<ArgumentNames<T>, true>>;
const described = {
  'auth.test': {} satisfies Names<AuthTestArguments>,
  'conversations.list': {
    types: true,
    exclude_archived: true,
    limit: true,
    cursor: true,
  } satisfies Names<ConversationsListArguments>,
  'conversations.history': {
    channel: true,
    limit: true,
    oldest: true,
    latest: true,
    cursor: true,
  } satisfies Names<ConversationsHistoryArguments>,
  'users.lookupByEmail': { email: true } satisfies Names<UsersLookupByEmailArguments>,
  'chat.postMessage': {
    channel: true,
    text: true,
    thread_ts: true,
    unfurl_links: true,
    unfurl_media: true,
    reply_broadcast: true,
    mrkdwn: true,
  } satisfies Names<ChatPostMessageArguments>,
  'chat.delete': { channel: true, ts: true } satisfies Names<ChatDeleteArguments>,
} as const satisfies Record<string, Record<string, true>>;

const api = 'https://slack.com/api';
const server = createTestServer({
  [`POST ${api}/auth.test`]: { headers: slackHeaders(), body: authTest },
  [`GET ${api}/conversations.list`]: { headers: slackHeaders(), body: conversationsList },
  [`GET ${api}/conversations.history`]: { headers: slackHeaders(), body: conversationsHistory },
  [`GET ${api}/users.lookupByEmail`]: { headers: slackHeaders(), body: userByEmail },
  [`POST ${api}/chat.postMessage`]: { headers: slackHeaders(), body: postedMessage },
  [`POST ${api}/chat.delete`]: { headers: slackHeaders(), body: deletedMessage },
});

function expectDescribed(calls: readonly RecordedRequest[]) {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    const method = new URL(call.url).pathname.replace(/^\/api\//, '');
    const names = (described as Record<string, Record<string, true>>)[method];
    expect(names, `${method} is not a Slack Web API method this test knows`).toBeDefined();
    const sent = call.method === 'GET' ? call.searchParams : formBody(call.body);
    expect(Object.keys(sent).filter((name) => !names?.[name])).toEqual([]);
  }
}

const toolCalls: [string, Record<string, unknown>][] = [
  ['slack_list_channels', { include_private: true, cursor: 'dGVhbTpDMDYxRkE1UEI=' }],
  [
    'slack_get_channel_history',
    { channel: 'C012AB3CD', limit: 5, oldest: '1512000000.000000', latest: '1512100000.000000' },
  ],
  ['slack_find_user_by_email', { email: 'spengler@ghostbusters.example.com' }],
  ['slack_post_message', { channel: 'C012AB3CD', text: 'Deploy finished', thread_ts: '1503435956.000247' }],
  ['slack_delete_message', { channel: 'C012AB3CD', ts: '1503435956.000247' }],
];

describe('Slack calls against @slack/web-api’s argument types', () => {
  it.each(toolCalls)('%s sends only arguments Slack defines for its method', async (name, input) => {
    expect(await callSlackTool(name, input)).toMatchObject({ ok: true });
    expectDescribed(server.calls);
  });

  it('verify() calls auth.test with no arguments', async () => {
    await slack.verify({ token: testToken });
    expectDescribed(server.calls);
  });
});
