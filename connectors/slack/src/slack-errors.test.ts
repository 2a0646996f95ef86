import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { callSlackTool, testToken } from './fixtures/call-slack-tool.js';
import { slackError, slackRateLimited } from './fixtures/slack-responses.js';

const postUrl = 'POST https://slack.com/api/chat.postMessage';
const server = createTestServer();
const post = () => callSlackTool('slack_post_message', { channel: 'C012AB3CD', text: 'Deploy finished' });

describe('Slack error signals', () => {
  it.each(['invalid_auth', 'token_revoked', 'not_authed', 'account_inactive', 'token_expired'])(
    'maps ok:false %s on HTTP 200 to invalid_credentials with the app settings page',
    async (code) => {
      server.use({ [postUrl]: slackError(code) });
      expect(await post()).toMatchObject({
        ok: false,
        error_type: 'invalid_credentials',
        connector: 'slack',
        setup_url: 'https://api.slack.com/apps',
        meta: { slack_error: code },
      });
    },
  );

  it('maps missing_scope to permission_denied listing the needed scopes', async () => {
    server.use({
      [postUrl]: slackError('missing_scope', {
        needed: 'chat:write,chat:write.public',
        provided: 'channels:read',
      }),
    });
    const envelope = await post();
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['chat:write', 'chat:write.public'],
    });
    expect((envelope as { user_message: string }).user_message).toContain('chat:write, chat:write.public');
  });

  it('maps channel_not_found to not_found', async () => {
    server.use({ [postUrl]: slackError('channel_not_found') });
    expect(await post()).toMatchObject({ ok: false, error_type: 'not_found', retryable: false });
  });

  it('maps a 429 with Retry-After to rate_limited with that wait', async () => {
    server.use({ [postUrl]: slackRateLimited(17) });
    expect(await post()).toMatchObject({
      ok: false,
      error_type: 'rate_limited',
      retry_after_s: 17,
      retryable: true,
    });
  });

  it('maps the posting limit (ok:false rate_limited) to rate_limited, using Retry-After when sent', async () => {
    server.use({
      [postUrl]: { status: 200, headers: { 'retry-after': '1' }, body: { ok: false, error: 'rate_limited' } },
    });
    expect(await post()).toMatchObject({ ok: false, error_type: 'rate_limited', retry_after_s: 1 });
  });

  it('maps transient Slack failures to a retryable upstream_error and fatal_error to a non-retryable one', async () => {
    server.use({ [postUrl]: [slackError('service_unavailable'), slackError('fatal_error')] });
    expect(await post()).toMatchObject({ error_type: 'upstream_error', retryable: true });
    // fatal_error may have half-happened: retrying could post twice.
    expect(await post()).toMatchObject({ error_type: 'upstream_error', retryable: false });
  });

  it('maps an unknown error code to a non-retryable upstream_error naming the code', async () => {
    server.use({ [postUrl]: slackError('something_new') });
    expect(await post()).toMatchObject({
      ok: false,
      error_type: 'upstream_error',
      retryable: false,
      user_message: 'Slack reported an error (something_new).',
    });
  });

  it('never returns the token, even when Slack echoes it', async () => {
    server.use({
      [postUrl]: { body: { ok: false, error: 'invalid_auth', warning: testToken, provided: testToken } },
    });
    expect(JSON.stringify(await post())).not.toContain(testToken);
  });
});
