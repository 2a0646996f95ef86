import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';
import { type GithubIssue, summarizeIssue } from '../github-issue.js';
import { issueNumberField, repositoryFields, repositoryPath } from '../github-repository.js';

/** `github_close_issue`: closes an issue. It can be reopened, so this is a write, not destructive. */
export function createGithubCloseIssue(client: HttpClient) {
  return defineTool({
    name: 'github_close_issue',
    description:
      'Closes a GitHub issue as completed, not planned or a duplicate. The issue and its history stay and it can be reopened.',
    input: z.object({
      ...repositoryFields,
      issue_number: issueNumberField,
      state_reason: z
        .enum(['completed', 'not_planned', 'duplicate'])
        .default('completed')
        .describe(
          'Why the issue is closed: completed (done, the default), not_planned (won’t fix) or duplicate (already reported elsewhere)',
        ),
    }),
    effect: 'write',
    requiredScopes: ['public_repo'],
    async execute(input, context) {
      const { data } = await client.request<GithubIssue>(context.credentials, {
        method: 'PATCH',
        path: `${repositoryPath(input)}/issues/${input.issue_number}`,
        json: { state: 'closed', state_reason: input.state_reason },
        signal: context.signal,
      });
      return success(summarizeIssue(data));
    },
  });
}
