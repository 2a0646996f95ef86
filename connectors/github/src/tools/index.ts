import type { AnyTool } from '@patchbay/connector';
import type { HttpClient } from '@patchbay/helpers';
import { createGithubCloseIssue } from './close-issue.js';
import { createGithubCommentOnIssue } from './comment-on-issue.js';
import { createGithubCreateIssue } from './create-issue.js';
import { createGithubGetIssue } from './get-issue.js';
import { createGithubListPullRequests } from './list-pull-requests.js';
import { createGithubSearchIssues } from './search-issues.js';

/** Every GitHub tool, bound to one HTTP client; reads first, then writes. */
export function createGithubTools(client: HttpClient): AnyTool[] {
  return [
    createGithubGetIssue(client),
    createGithubSearchIssues(client),
    createGithubListPullRequests(client),
    createGithubCreateIssue(client),
    createGithubCommentOnIssue(client),
    createGithubCloseIssue(client),
  ];
}
