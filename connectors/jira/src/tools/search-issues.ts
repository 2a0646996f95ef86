import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { JiraClient } from '../jira-client.js';
import { issueSummary, type JiraIssue, summaryFields } from '../jira-issue.js';
import { readWork } from '../jira-scopes.js';

/** The body of `POST /rest/api/3/search/jql` (the enhanced search that replaced `/search`). */
interface SearchResponse {
  issues?: JiraIssue[];
  nextPageToken?: string | null;
  isLast?: boolean;
}

/** `jira_search_issues`: issues matching a JQL query, one page at a time. */
export function createJiraSearchIssues(client: JiraClient) {
  return defineTool({
    name: 'jira_search_issues',
    description:
      'Searches Jira issues with JQL, e.g. `project = PROJ AND statusCategory != Done ORDER BY updated DESC` or `assignee = currentUser()`. Returns key, summary, status, type, priority and assignee; pass next_page_token from a previous answer for more.',
    input: z.object({
      jql: z
        .string()
        .trim()
        .min(1)
        .max(10000)
        .describe('JQL query; Jira requires it to be bounded, e.g. by project, assignee or a date')
        .meta({ question: 'Which Jira issues should I look for (for example a project or an assignee)?' }),
      max_results: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(20)
        .describe('How many issues to return in this page, 1 to 100 (default 20)'),
      next_page_token: z
        .string()
        .min(1)
        .optional()
        .describe('The next_page_token of a previous search with the same JQL, to get the following page'),
    }),
    effect: 'read',
    requiredScopes: [readWork],
    async execute(input, context) {
      const { data } = await client.request<SearchResponse>(context.credentials, {
        method: 'POST',
        path: '/rest/api/3/search/jql',
        json: {
          jql: input.jql,
          maxResults: input.max_results,
          fields: summaryFields,
          ...(input.next_page_token ? { nextPageToken: input.next_page_token } : {}),
        },
        requiredScopes: [readWork],
        signal: context.signal,
      });
      const issues = (data?.issues ?? []).map((issue) => issueSummary(issue, client.browseUrl(issue.key)));
      return success({
        issues,
        next_page_token: data?.nextPageToken ?? null,
        is_last: data?.isLast ?? !data?.nextPageToken,
      });
    },
  });
}
