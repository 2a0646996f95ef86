import { describeConnectorConformance } from '@patchbay/testing';
import {
  badCredentials,
  missingScope,
  notFound,
  primaryRateLimit,
  serverError,
} from './fixtures/github-responses.js';
import { createGithub } from './github-connector.js';

describeConnectorConformance(createGithub(), {
  credentials: { token: 'ghp_000000000000000000000000000000000000' },
  samples: {
    github_get_issue: { owner: 'octocat', repo: 'Hello-World', issue_number: 1347 },
    github_search_issues: { query: 'repo:octocat/Hello-World is:issue is:open' },
    github_list_pull_requests: { owner: 'octocat', repo: 'Hello-World' },
    github_create_issue: { owner: 'octocat', repo: 'Hello-World', title: 'Found a bug' },
    github_comment_on_issue: { owner: 'octocat', repo: 'Hello-World', issue_number: 1347, body: 'Me too' },
    github_close_issue: { owner: 'octocat', repo: 'Hello-World', issue_number: 1347 },
  },
  // GitHub's own failure responses: a primary rate limit is a 403 with x-ratelimit-remaining: 0.
  failures: {
    unauthorized: badCredentials,
    forbidden: missingScope,
    not_found: notFound,
    rate_limited: primaryRateLimit(),
    server_error: serverError,
  },
});
