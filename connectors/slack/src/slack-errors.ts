import { type ErrorEnvelope, type ErrorType, failure, retryAfterSeconds } from '@patchbay/envelope';

/** Slack's `{ ok: false }` body, sent with HTTP 200 (or 429 when rate limited). */
export interface SlackErrorBody {
  ok: false;
  error?: string;
  /** Scopes a `missing_scope` error says the method needs, comma-separated. */
  needed?: string;
  /** Scopes the token has, comma-separated. */
  provided?: string;
}

interface SlackErrorMeaning {
  type: ErrorType;
  message: string;
  retryable?: boolean;
}

const reconnect = 'The Slack token is no longer valid; reconnect Slack.';
const invite =
  'The Slack app is not a member of that channel; invite it with /invite @app-name and try again.';

// Error codes from Slack's method reference (docs.slack.dev/reference/methods), grouped by what a
// user or the model can do about them. Codes not listed become a non-retryable upstream_error.
const meanings: Readonly<Record<string, SlackErrorMeaning>> = {
  not_authed: { type: 'invalid_credentials', message: 'No Slack token was sent; reconnect Slack.' },
  invalid_auth: { type: 'invalid_credentials', message: reconnect },
  token_revoked: {
    type: 'invalid_credentials',
    message: 'The Slack token was revoked or the app was removed; reconnect Slack.',
  },
  token_expired: { type: 'invalid_credentials', message: 'The Slack token has expired; reconnect Slack.' },
  account_inactive: {
    type: 'invalid_credentials',
    message: 'The Slack token belongs to a deleted user or workspace; reconnect Slack.',
  },
  missing_scope: {
    type: 'permission_denied',
    message: 'The Slack app lacks a permission this action needs.',
  },
  not_in_channel: { type: 'permission_denied', message: invite },
  no_permission: {
    type: 'permission_denied',
    message: 'The Slack app is not allowed to do this; make sure it is a member of the conversation.',
  },
  access_denied: { type: 'permission_denied', message: 'Slack denied access to that conversation.' },
  cant_delete_message: {
    type: 'permission_denied',
    message: 'The Slack app may only delete messages it posted itself.',
  },
  restricted_action: {
    type: 'permission_denied',
    message: 'A workspace setting prevents the Slack app from posting there.',
  },
  restricted_action_read_only_channel: {
    type: 'permission_denied',
    message: 'That Slack channel is read-only.',
  },
  restricted_action_thread_only_channel: {
    type: 'invalid_arguments',
    message: 'That Slack channel only accepts replies in threads; pass thread_ts.',
  },
  restricted_action_non_threadable_channel: {
    type: 'invalid_arguments',
    message: 'That Slack channel does not accept thread replies; leave out thread_ts.',
  },
  ekm_access_denied: {
    type: 'permission_denied',
    message: 'Slack administrators have suspended this action.',
  },
  team_access_not_granted: {
    type: 'permission_denied',
    message: 'The Slack token has no access to that workspace.',
  },
  not_allowed_token_type: {
    type: 'permission_denied',
    message: 'This Slack action does not accept this kind of token.',
  },
  channel_not_found: {
    type: 'not_found',
    message:
      'The Slack channel was not found, or the app cannot see it (private channels need the app invited).',
  },
  message_not_found: {
    type: 'not_found',
    message: 'No Slack message exists with that timestamp in that channel.',
  },
  thread_not_found: { type: 'not_found', message: 'The Slack thread was not found.' },
  users_not_found: { type: 'not_found', message: 'No active Slack user has that email address.' },
  user_not_found: { type: 'not_found', message: 'The Slack user was not found.' },
  is_archived: { type: 'conflict', message: 'That Slack channel is archived.' },
  no_text: { type: 'invalid_arguments', message: 'The Slack message has no text.' },
  msg_too_long: { type: 'invalid_arguments', message: 'The Slack message is too long.' },
  invalid_arguments: { type: 'invalid_arguments', message: 'Slack rejected the arguments.' },
  missing_argument: { type: 'invalid_arguments', message: 'Slack says a required argument is missing.' },
  invalid_cursor: {
    type: 'invalid_arguments',
    message: 'The pagination cursor is invalid or expired; start again without it.',
  },
  invalid_limit: { type: 'invalid_arguments', message: 'Slack did not accept the limit.' },
  invalid_types: {
    type: 'invalid_arguments',
    message: 'Slack did not accept the channel types (private channels need the groups:read scope).',
  },
  invalid_ts_latest: {
    type: 'invalid_arguments',
    message: 'The latest timestamp is not a valid Slack timestamp.',
  },
  invalid_ts_oldest: {
    type: 'invalid_arguments',
    message: 'The oldest timestamp is not a valid Slack timestamp.',
  },
  ratelimited: { type: 'rate_limited', message: 'Slack is rate limiting requests right now.' },
  rate_limited: { type: 'rate_limited', message: 'Slack is limiting how fast messages can be posted.' },
  fatal_error: {
    type: 'upstream_error',
    message: 'Slack failed while handling the request; part of it may have happened.',
    retryable: false,
  },
  internal_error: { type: 'upstream_error', message: 'Slack had a temporary problem.', retryable: true },
  service_unavailable: {
    type: 'upstream_error',
    message: 'Slack is temporarily unavailable.',
    retryable: true,
  },
  request_timeout: {
    type: 'upstream_error',
    message: 'Slack did not receive the whole request.',
    retryable: true,
  },
  team_added_to_org: {
    type: 'upstream_error',
    message: 'The Slack workspace is being migrated; try again later.',
    retryable: true,
  },
  org_login_required: {
    type: 'upstream_error',
    message: 'The Slack workspace is being migrated; try again later.',
    retryable: true,
  },
};

/** The envelope error type a Slack error code means, or `upstream_error` for codes without a fixed meaning. */
export function slackErrorType(code: string | undefined): ErrorType {
  return (code === undefined ? undefined : meanings[code]?.type) ?? 'upstream_error';
}

/**
 * Maps a Slack `{ ok: false, error }` body to an envelope by its error code: `missing_scope` names
 * the `needed` scopes, rate limits carry `Retry-After`, the rest get a sentence a user can act on.
 * The sentence is ours, never Slack's text, so nothing the request echoed can come back.
 */
export function slackErrorEnvelope(body: SlackErrorBody, options: { headers?: Headers } = {}): ErrorEnvelope {
  const code = typeof body.error === 'string' ? body.error : undefined;
  const meaning = code === undefined ? undefined : meanings[code];
  // The connector id and setup URL are filled in by `invokeTool` for every envelope a tool returns.
  const common = { meta: code === undefined ? undefined : { slack_error: code } };
  if (!meaning) {
    return failure('upstream_error', {
      ...common,
      retryable: false,
      userMessage: code ? `Slack reported an error (${code}).` : 'Slack answered without a result.',
    });
  }
  const missingScopes =
    code === 'missing_scope' && typeof body.needed === 'string'
      ? body.needed
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean)
      : undefined;
  return failure(meaning.type, {
    ...common,
    retryable: meaning.retryable,
    retryAfterS:
      meaning.type === 'rate_limited' && options.headers ? retryAfterSeconds(options.headers) : undefined,
    missingScopes,
    userMessage: missingScopes?.length
      ? `The Slack app lacks the scope${missingScopes.length > 1 ? 's' : ''} ${missingScopes.join(', ')}; add ${missingScopes.length > 1 ? 'them' : 'it'} under OAuth & Permissions and reinstall the app.`
      : meaning.message,
  });
}
