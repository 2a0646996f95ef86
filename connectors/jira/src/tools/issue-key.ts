import { z } from 'zod';

/** A Jira issue key (`PROJ-123`) or numeric id; checked here so a malformed one never reaches a URL. */
export function issueKeySchema(question: string) {
  return z
    .string()
    .trim()
    .regex(
      /^(?:[A-Za-z][A-Za-z0-9_]*-\d+|\d+)$/,
      'must be an issue key such as PROJ-123 or a numeric issue id',
    )
    .describe('Issue key such as PROJ-123 (or the numeric issue id)')
    .meta({ question });
}
