import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import { textToAdf } from '../jira-adf.js';
import type { JiraClient } from '../jira-client.js';
import { issueKeySchema } from '../jira-issue.js';
import { writeWork } from '../jira-scopes.js';

/** The body of a 201 from `POST /rest/api/3/issue/{key}/comment`. */
interface CreatedComment {
  id: string;
  self?: string;
  created?: string;
  author?: { displayName?: string };
}

/** `jira_add_comment`: a plain-text comment on an issue, posted as the connected user. */
export function createJiraAddComment(client: JiraClient) {
  return defineTool({
    name: 'jira_add_comment',
    description:
      'Adds a comment to a Jira issue as the connected user. Watchers of the issue are notified. The text is plain; blank lines separate paragraphs.',
    input: z.object({
      issue_key: issueKeySchema('Which Jira issue should I comment on?'),
      body: z
        .string()
        .trim()
        .min(1)
        .max(32000)
        .describe('Text of the comment')
        .meta({ question: 'What should the comment say?' }),
    }),
    effect: 'write',
    requiredScopes: [writeWork],
    async execute(input, context) {
      const { data } = await client.request<CreatedComment>(context.credentials, {
        method: 'POST',
        path: `/rest/api/3/issue/${encodeURIComponent(input.issue_key)}/comment`,
        json: { body: textToAdf(input.body) },
        requiredScopes: [writeWork],
        signal: context.signal,
      });
      const url = client.browseUrl(input.issue_key);
      return success({
        issue_key: input.issue_key,
        comment_id: data.id,
        created: data.created ?? null,
        author: data.author?.displayName ?? null,
        ...(url ? { url: `${url}?focusedCommentId=${encodeURIComponent(data.id)}` } : {}),
      });
    },
  });
}
