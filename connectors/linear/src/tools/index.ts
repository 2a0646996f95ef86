import type { AnyTool } from '@patchbay/connector';
import type { LinearClient } from '../linear-client.js';
import { createLinearCommentOnIssue } from './comment-on-issue.js';
import { createLinearCreateIssue } from './create-issue.js';
import { createLinearGetIssue } from './get-issue.js';
import { createLinearListTeams } from './list-teams.js';
import { createLinearSearchIssues } from './search-issues.js';
import { createLinearUpdateIssueState } from './update-issue-state.js';

/** Every Linear tool, bound to one client. */
export function createLinearTools(client: LinearClient): AnyTool[] {
  return [
    createLinearSearchIssues(client),
    createLinearGetIssue(client),
    createLinearListTeams(client),
    createLinearCreateIssue(client),
    createLinearCommentOnIssue(client),
    createLinearUpdateIssueState(client),
  ];
}
