import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool } from '../fixtures/call-slack-tool.js';
import { slackHeaders, userByEmail } from '../fixtures/slack-responses.js';

const api = 'https://slack.com/api';
const server = createTestServer({
  [`GET ${api}/users.lookupByEmail`]: { headers: slackHeaders(), body: userByEmail },
});

describe('slack_find_user_by_email', () => {
  it('looks the person up by email', async () => {
    const envelope = await callSlackTool('slack_find_user_by_email', {
      email: 'spengler@ghostbusters.example.com',
    });
    expect(server.calls[0]?.searchParams).toEqual({ email: 'spengler@ghostbusters.example.com' });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        id: 'W012A3CDE',
        name: 'spengler',
        real_name: 'Egon Spengler',
        display_name: 'spengler',
        title: 'Parapsychologist',
        tz: 'America/Los_Angeles',
        is_bot: false,
        deleted: false,
      },
    });
  });

  it('asks for the email address when it is missing', async () => {
    expect(await callSlackTool('slack_find_user_by_email', {})).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'email', question: 'What is the email address of the person in Slack?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('maps users_not_found to not_found', async () => {
    server.use({ [`GET ${api}/users.lookupByEmail`]: { body: { ok: false, error: 'users_not_found' } } });
    expect(await callSlackTool('slack_find_user_by_email', { email: 'nobody@example.com' })).toMatchObject({
      ok: false,
      error_type: 'not_found',
      user_message: 'No active Slack user has that email address.',
    });
  });
});
