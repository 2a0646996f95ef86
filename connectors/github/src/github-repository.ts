import { z } from 'zod';

/** The `owner` and `repo` input fields every repository-scoped GitHub tool shares. */
export const repositoryFields = {
  owner: z
    .string()
    .min(1)
    .describe('Account or organization that owns the repository, e.g. "octocat" in octocat/hello-world')
    .meta({ question: 'Which GitHub account or organization owns the repository?' }),
  repo: z
    .string()
    .min(1)
    .describe('Repository name without the owner, e.g. "hello-world" in octocat/hello-world')
    .meta({ question: 'Which repository do you mean?' }),
};

/** The `issue_number` input field: the number shown in the issue's URL, not its internal id. */
export const issueNumberField = z
  .number()
  .int()
  .positive()
  .describe('Issue number as shown in the URL and title, e.g. 42 for .../issues/42')
  .meta({ question: 'Which issue number do you mean?' });

/** `/repos/{owner}/{repo}` with both segments encoded. */
export function repositoryPath(input: { owner: string; repo: string }): string {
  return `/repos/${encodeURIComponent(input.owner)}/${encodeURIComponent(input.repo)}`;
}
