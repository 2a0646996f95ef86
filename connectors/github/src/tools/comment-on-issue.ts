import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';
import { issueNumberField, repositoryFields, repositoryPath } from '../github-repository.js';

/** `github_comment_on_issue`: adds a comment to an issue or pull request. */
export function createGithubCommentOnIssue(client: HttpClient) {
  return defineTool({
    name: 'github_comment_on_issue',
    description:
      'Adds a Markdown comment to a GitHub issue or pull request. Everyone subscribed to the issue is notified.',
    input: z.object({
      ...repositoryFields,
      issue_number: issueNumberField,
      body: z
        .string()
        .min(1)
        .max(65_536)
        .describe('Text of the comment, in GitHub Markdown')
        .meta({ question: 'What should the comment say?' }),
    }),
    effect: 'write',
    requiredScopes: ['public_repo'],
    async execute(input, context) {
      const { data } = await client.request<{ id: number; html_url: string; created_at: string }>(
        context.credentials,
        {
          method: 'POST',
          path: `${repositoryPath(input)}/issues/${input.issue_number}/comments`,
          json: { body: input.body },
          signal: context.signal,
        },
      );
      return success({ id: data.id, url: data.html_url, created_at: data.created_at });
    },
  });
}
