import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { LinearClient } from '../linear-client.js';
import { issueSummary, issueSummarySelection, type LinearIssueNode } from '../linear-issue.js';
import { read } from '../linear-scopes.js';

const searchIssues = `query PatchbaySearchIssues($term: String!, $first: Int, $after: String) {
  searchIssues(term: $term, first: $first, after: $after) {
    nodes {${issueSummarySelection}
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface SearchData {
  searchIssues: { nodes: LinearIssueNode[]; pageInfo?: { hasNextPage?: boolean; endCursor?: string | null } };
}

/** `linear_search_issues`: full-text search over the workspace's issues. */
export function createLinearSearchIssues(client: LinearClient) {
  return defineTool({
    name: 'linear_search_issues',
    description:
      'Searches Linear issues by text (title, description, identifier) across the workspace. Returns identifier, title, state, priority, assignee, team and link; pass next_cursor from a previous answer for more.',
    input: z.object({
      query: z
        .string()
        .trim()
        .min(1)
        .describe('Words to search for, or an identifier such as ENG-123')
        .meta({ question: 'What should I search Linear for?' }),
      max_results: z
        .number()
        .int()
        .min(1)
        .max(50)
        .default(20)
        .describe('How many issues to return, 1 to 50 (default 20)'),
      cursor: z
        .string()
        .min(1)
        .optional()
        .describe('The next_cursor of a previous search with the same query, to get the following page'),
    }),
    effect: 'read',
    requiredScopes: [read],
    async execute(input, context) {
      const data = await client.graphql<SearchData>(context.credentials, {
        query: searchIssues,
        variables: {
          term: input.query,
          first: input.max_results,
          ...(input.cursor ? { after: input.cursor } : {}),
        },
        requiredScopes: [read],
        signal: context.signal,
      });
      const { nodes = [], pageInfo } = data.searchIssues ?? {};
      return success({
        issues: nodes.map(issueSummary),
        next_cursor: pageInfo?.hasNextPage ? (pageInfo.endCursor ?? null) : null,
      });
    },
  });
}
