import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool } from './fixtures/call-slack-tool.js';
import { conversationsHistory, conversationsList, slackHeaders } from './fixtures/slack-responses.js';
import { slack } from './slack-connector.js';

const api = 'https://slack.com/api';
// An app installed for private channels only: Slack lets it read and list those.
const privateOnly = ['chat:write', 'groups:history', 'groups:read'];
const server = createTestServer({
  [`GET ${api}/conversations.history`]: {
    headers: slackHeaders(privateOnly.join(',')),
    body: conversationsHistory,
  },
  [`GET ${api}/conversations.list`]: {
    headers: slackHeaders(privateOnly.join(',')),
    body: conversationsList,
  },
});

describe('Slack channel tools accept the private-channel scopes', () => {
  it('reads a private channel with groups:history alone', async () => {
    const envelope = await callSlackTool(
      'slack_get_channel_history',
      { channel: 'G012AB3CD' },
      { scopes: privateOnly },
    );
    expect(envelope).toMatchObject({ ok: true });
    expect(server.calls).toHaveLength(1);
  });

  it('lists private channels with groups:read alone, asking Slack only for those', async () => {
    const envelope = await callSlackTool('slack_list_channels', {}, { scopes: privateOnly });
    expect(envelope).toMatchObject({ ok: true });
    expect(server.calls[0]?.searchParams.types).toBe('private_channel');
  });

  it('refuses before any request when the token has neither kind of scope', async () => {
    const scopes = ['chat:write'];
    expect(
      await callSlackTool('slack_get_channel_history', { channel: 'C012AB3CD' }, { scopes }),
    ).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['channels:history'],
    });
    expect(await callSlackTool('slack_list_channels', {}, { scopes })).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['channels:read'],
    });
    expect(
      await callSlackTool('slack_list_channels', { include_private: true }, { scopes: ['channels:read'] }),
    ).toMatchObject({ ok: false, error_type: 'permission_denied', missing_scopes: ['groups:read'] });
    expect(server.calls).toHaveLength(0);
  });

  it('asks for users:read together with users:read.email, which Slack grants only with it', () => {
    const declared = slack.auth.scopes.map((scope) => scope.name);
    expect(declared).toContain('users:read');
    const tool = slack.tools.find((candidate) => candidate.name === 'slack_find_user_by_email');
    expect(tool?.requiredScopes).toEqual(['users:read', 'users:read.email']);
  });
});
