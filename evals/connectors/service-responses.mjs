// Service responses for the scenarios that run the real connector packages. They come from the
// packages' own msw fixtures (shaped after GitHub's and Slack's API references, with their headers),
// imported from source so the evals answer exactly what the connectors' tests answer.
import {
  badCredentials,
  githubHeaders,
  issue,
  notFound,
} from '../../connectors/github/src/fixtures/github-responses.ts';
import {
  conversationsHistory,
  deletedMessage,
  postedMessage,
  slackHeaders,
  slackRateLimited,
} from '../../connectors/slack/src/fixtures/slack-responses.ts';

const responses = {
  /** `GET /repos/{owner}/{repo}/issues/{n}`: octocat/Hello-World#1347 "Found a bug". */
  'github.issue': () => ({ status: 200, headers: githubHeaders(), body: issue }),
  /** 401 Bad credentials: the token was revoked. */
  'github.bad_credentials': () => badCredentials,
  'github.not_found': () => notFound,
  'slack.conversations_history': () => ({ status: 200, headers: slackHeaders(), body: conversationsHistory }),
  'slack.posted_message': () => ({ status: 200, headers: slackHeaders(), body: postedMessage }),
  'slack.deleted_message': () => ({ status: 200, headers: slackHeaders(), body: deletedMessage }),
  /** HTTP 429 with `Retry-After` (seconds, default 30). */
  'slack.rate_limited': ({ retry_after_s } = {}) => slackRateLimited(retry_after_s),
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
