import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';
import { type GithubIssue, summarizeIssue } from '../github-issue.js';
import { repositoryFields, repositoryPath } from '../github-repository.js';

/** `github_create_issue`: opens an issue. Subscribers are notified, so it is a write. */
export function createGithubCreateIssue(client: HttpClient) {
  return defineTool({
    name: 'github_create_issue',
    description:
      'Opens a new issue in a GitHub repository with a title, an optional Markdown body, labels and assignees. Watchers of the repository are notified.',
    input: z.object({
      ...repositoryFields,
      title: z
        .string()
        .min(1)
        .max(256)
        .describe('Title of the new issue, one line')
        .meta({ question: 'What should the issue be titled?' }),
      body: z.string().max(65_536).optional().describe('Description of the issue, in GitHub Markdown'),
      labels: z
        .array(z.string().min(1).describe('Name of an existing label'))
        .optional()
        .describe('Labels to apply; only labels that exist in the repository are kept by GitHub'),
      assignees: z
        .array(z.string().min(1).describe('GitHub login of a collaborator'))
        .max(10)
        .optional()
        .describe('Logins of people to assign (needs push access to the repository)'),
    }),
    effect: 'write',
    // A `repo` token implies `public_repo` (see parseGithubScopes); private repositories need `repo`.
    requiredScopes: ['public_repo'],
    async execute(input, context) {
      const { data } = await client.request<GithubIssue>(context.credentials, {
        method: 'POST',
        path: `${repositoryPath(input)}/issues`,
        json: { title: input.title, body: input.body, labels: input.labels, assignees: input.assignees },
        signal: context.signal,
      });
      return success(summarizeIssue(data));
    },
  });
}
