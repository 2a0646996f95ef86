import type { AnyTool } from '@patchbay/connector';
import type { JiraClient } from '../jira-client.js';
import { createJiraAddComment } from './add-comment.js';
import { createJiraCreateIssue } from './create-issue.js';
import { createJiraGetIssue } from './get-issue.js';
import { createJiraSearchIssues } from './search-issues.js';
import { createJiraTransitionIssue } from './transition-issue.js';

/** Every Jira tool, bound to one client. */
export function createJiraTools(client: JiraClient): AnyTool[] {
  return [
    createJiraGetIssue(client),
    createJiraSearchIssues(client),
    createJiraCreateIssue(client),
    createJiraAddComment(client),
    createJiraTransitionIssue(client),
  ];
}
