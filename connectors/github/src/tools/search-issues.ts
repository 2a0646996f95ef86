import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';
import { type GithubIssue, summarizeIssue } from '../github-issue.js';

/** `github_search_issues`: finds issues and pull requests with GitHub's search syntax. */
export function createGithubSearchIssues(client: HttpClient) {
  return defineTool({
    name: 'github_search_issues',
    description:
      'Searches GitHub issues and pull requests with GitHub search syntax, e.g. "repo:octocat/hello-world is:issue is:open label:bug". Returns the matches without their bodies.',
    input: z.object({
      query: z
        .string()
        .min(1)
        .max(256)
        .describe(
          'GitHub search query with qualifiers such as repo:OWNER/NAME, is:issue or is:pr, is:open, label:NAME, author:LOGIN, assignee:LOGIN',
        )
        .meta({ question: 'What should I search GitHub issues for?' }),
      per_page: z.number().int().min(1).max(100).default(20).describe('How many results to return (1-100)'),
      page: z.number().int().min(1).default(1).describe('Page of results to return, starting at 1'),
    }),
    effect: 'read',
    requiredScopes: [],
    async execute(input, context) {
      const { data } = await client.request<{
        total_count: number;
        incomplete_results: boolean;
        items: GithubIssue[];
      }>(context.credentials, {
        path: '/search/issues',
        query: { q: input.query, per_page: input.per_page, page: input.page },
        signal: context.signal,
      });
      return success({
        total_count: data.total_count,
        incomplete_results: data.incomplete_results,
        items: data.items.map((issue) => summarizeIssue(issue)),
      });
    },
  });
}
