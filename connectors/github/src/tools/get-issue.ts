import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import type { HttpClient } from '@patchbay/helpers';
import { z } from 'zod';
import { type GithubIssue, summarizeIssue } from '../github-issue.js';
import { issueNumberField, repositoryFields, repositoryPath } from '../github-repository.js';

/** `github_get_issue`: reads one issue (or pull request) with its body. */
export function createGithubGetIssue(client: HttpClient) {
  return defineTool({
    name: 'github_get_issue',
    description:
      'Gets one GitHub issue by repository and number: title, state, labels, assignees and its Markdown body. Also works for pull request numbers.',
    input: z.object({ ...repositoryFields, issue_number: issueNumberField }),
    effect: 'read',
    // Public repositories need no scope; private ones answer 404 unless the token has `repo`.
    requiredScopes: [],
    async execute(input, context) {
      const { data } = await client.request<GithubIssue>(context.credentials, {
        path: `${repositoryPath(input)}/issues/${input.issue_number}`,
        signal: context.signal,
      });
      return success(summarizeIssue(data, { withBody: true }));
    },
  });
}
