import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';
import { repositoryFields, repositoryPath } from '../github-repository.js';

/** The fields of a GitHub pull request (REST `pull-request-simple` schema) the tool reads. */
interface GithubPullRequest {
  number: number;
  title: string;
  state: 'open' | 'closed';
  draft?: boolean;
  html_url: string;
  user?: { login: string } | null;
  head: { ref: string };
  base: { ref: string };
  created_at: string;
  updated_at: string;
  merged_at?: string | null;
}

/** `github_list_pull_requests`: lists a repository's pull requests, newest first. */
export function createGithubListPullRequests(client: HttpClient) {
  return defineTool({
    name: 'github_list_pull_requests',
    description:
      'Lists pull requests of a GitHub repository, newest first: number, title, state, draft flag, author and branches.',
    input: z.object({
      ...repositoryFields,
      state: z
        .enum(['open', 'closed', 'all'])
        .default('open')
        .describe('Which pull requests to list: open (default), closed (merged or not) or all'),
      per_page: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(20)
        .describe('How many pull requests to return (1-100)'),
    }),
    effect: 'read',
    requiredScopes: [],
    async execute(input, context) {
      const { data } = await client.request<GithubPullRequest[]>(context.credentials, {
        path: `${repositoryPath(input)}/pulls`,
        query: { state: input.state, per_page: input.per_page, sort: 'created', direction: 'desc' },
        signal: context.signal,
      });
      return success({
        pull_requests: data.map((pull) => ({
          number: pull.number,
          title: pull.title,
          state: pull.state,
          draft: pull.draft ?? false,
          merged: pull.merged_at !== null && pull.merged_at !== undefined,
          url: pull.html_url,
          author: pull.user?.login ?? null,
          head: pull.head.ref,
          base: pull.base.ref,
          created_at: pull.created_at,
          updated_at: pull.updated_at,
        })),
      });
    },
  });
}
