import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { JiraClient } from '../jira-client.js';
import { detailFields, issueDetail, issueKeySchema, type JiraIssue } from '../jira-issue.js';
import { readWork } from '../jira-scopes.js';

/** `jira_get_issue`: one issue with its status, people and description as plain text. */
export function createJiraGetIssue(client: JiraClient) {
  return defineTool({
    name: 'jira_get_issue',
    description:
      'Gets one Jira issue by key (e.g. PROJ-123): summary, status, type, priority, assignee, reporter, labels and the description as plain text.',
    input: z.object({ issue_key: issueKeySchema('Which Jira issue do you mean (for example PROJ-123)?') }),
    effect: 'read',
    requiredScopes: [readWork],
    async execute(input, context) {
      const { data } = await client.request<JiraIssue>(context.credentials, {
        path: `/rest/api/3/issue/${encodeURIComponent(input.issue_key)}`,
        query: { fields: detailFields.join(',') },
        requiredScopes: [readWork],
        signal: context.signal,
      });
      return success(issueDetail(data, client.browseUrl(data.key)));
    },
  });
}
