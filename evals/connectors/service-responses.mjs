// Service responses for the scenarios that run the real connector packages. They come from the
// packages' own msw fixtures (shaped after each service's API reference, with their headers),
// imported from source so the evals answer exactly what the connectors' tests answer.
import {
  discordFailures,
  discordHeaders,
  ids as discordIds,
  messageObject,
} from '../../connectors/discord/src/fixtures/discord-responses.ts';
import {
  getEmailResponse,
  restrictedApiKey,
  sendEmailResponse,
} from '../../connectors/email/src/fixtures/email-responses.ts';
import {
  badCredentials,
  githubHeaders,
  serverError as githubServerError,
  issue,
  notFound,
  pullRequests,
} from '../../connectors/github/src/fixtures/github-responses.ts';
import {
  createdIssue as jiraCreatedIssue,
  jiraFailures,
  issue as jiraIssue,
  jsonHeaders,
} from '../../connectors/jira/src/fixtures/jira-responses.ts';
import { graphqlHeaders, issueDetail } from '../../connectors/linear/src/fixtures/linear-responses.ts';
import {
  notionFailures,
  pageContent,
  pageObject,
} from '../../connectors/notion/src/fixtures/notion-responses.ts';
import {
  conversationsHistory,
  deletedMessage,
  postedMessage,
  slackFailures,
  slackHeaders,
  slackRateLimited,
} from '../../connectors/slack/src/fixtures/slack-responses.ts';
import {
  authenticationError,
  getMessageResponse,
  sendMessageResponse,
} from '../../connectors/sms/src/fixtures/sms-responses.ts';

const responses = {
  /** `GET /repos/{owner}/{repo}/issues/{n}`: octocat/Hello-World#1347 "Found a bug". */
  'github.issue': () => ({ status: 200, headers: githubHeaders(), body: issue }),
  /** 401 Bad credentials: the token was revoked. */
  'github.bad_credentials': () => badCredentials,
  'github.not_found': () => notFound,
  /** `GET /repos/{owner}/{repo}/pulls`: one open pull request, #1348 "Fix the bug". */
  'github.pull_requests': () => ({ status: 200, headers: githubHeaders(), body: pullRequests }),
  /** `POST /repos/{owner}/{repo}/issues` (201): the new issue. */
  'github.created_issue': () => ({ status: 201, headers: githubHeaders(), body: issue }),
  /** 502 `{ message: "Server Error" }`, as GitHub's edge answers when the API is down. */
  'github.server_error': () => githubServerError,
  'slack.conversations_history': () => ({ status: 200, headers: slackHeaders(), body: conversationsHistory }),
  'slack.posted_message': () => ({ status: 200, headers: slackHeaders(), body: postedMessage }),
  'slack.deleted_message': () => ({ status: 200, headers: slackHeaders(), body: deletedMessage }),
  /** HTTP 429 with `Retry-After` (seconds, default 30). */
  'slack.rate_limited': ({ retry_after_s } = {}) => slackRateLimited(retry_after_s),
  /** HTTP 200 with `{ ok: false, error: "internal_error" }`: Slack's own failure, in its envelope. */
  'slack.internal_error': () => slackFailures.server_error,
  /** `GET /channels/{id}/messages`: two messages in #general. */
  'discord.messages': () => ({
    status: 200,
    headers: discordHeaders(),
    body: [messageObject(), messageObject({ id: discordIds.olderMessage, content: 'Staging is green' })],
  }),
  'discord.posted_message': () => ({
    status: 200,
    headers: discordHeaders(),
    body: messageObject({ id: discordIds.sentMessage, bot: true }),
  }),
  'discord.rate_limited': () => discordFailures.rate_limited,
  /** `GET /emails/{id}`: the sent invoice email. */
  'email.email': () => getEmailResponse,
  'email.sent': () => sendEmailResponse,
  'email.restricted_api_key': () => restrictedApiKey,
  /** `GET /rest/api/3/issue/PROJ-7`: "Login page times out". */
  'jira.issue': () => ({ status: 200, headers: jsonHeaders, body: jiraIssue }),
  'jira.unauthorized': () => jiraFailures.unauthorized,
  /** `POST /rest/api/3/issue` (201): PROJ-24. */
  'jira.created_issue': () => ({ status: 201, headers: jsonHeaders, body: jiraCreatedIssue }),
  /** Linear GraphQL `issue(id:)`: ENG-123 "Login page times out". */
  'linear.issue': () => ({ status: 200, headers: graphqlHeaders, body: issueDetail }),
  /** `GET /v1/pages/{id}`: the page "Launch plan". */
  'notion.page': () => ({ status: 200, body: pageObject() }),
  'notion.page_content': () => ({ status: 200, body: pageContent() }),
  'notion.rate_limited': () => notionFailures.rate_limited,
  /** Twilio `GET Messages/{sid}.json`: a delivered SMS. */
  'sms.message': () => getMessageResponse,
  'sms.sent': () => sendMessageResponse,
  'sms.authentication_error': () => authenticationError,
  /** No answer: the connection drops after the request arrived (the client sees a network error). */
  'network.dropped': () => ({ dropped: true }),
  /**
   * A service that takes its time: no answer until the client aborts (then none at all) or 20 s
   * pass (then Slack's `chat.postMessage` answer): the request is in flight while a turn is cancelled.
   */
  'network.slow': () => ({ slow: 'slack.posted_message' }),
};

/** Response names a scenario's `http` routes may use. */
export const serviceResponseNames = Object.keys(responses);

/** The response spec (`{ status, headers, body }`) a scenario route names, with its arguments. */
export function serviceResponse(name, args = {}) {
  const make = responses[name];
  if (!make)
    throw new Error(`unknown service response "${name}" (known: ${Object.keys(responses).join(', ')})`);
  return make(args);
}
