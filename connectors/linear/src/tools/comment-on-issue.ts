import { defineTool } from '@patchbay/connector';
import { success, upstreamError } from '@patchbay/envelope';
import { z } from 'zod';
import type { LinearClient } from '../linear-client.js';
import { issueIdSchema, resolveIssueId } from '../linear-ids.js';
import { commentsCreate } from '../linear-scopes.js';

const createComment = `mutation PatchbayCreateComment($input: CommentCreateInput!) {
  commentCreate(input: $input) { success comment { id url createdAt } }
}`;

interface CommentData {
  commentCreate: { success: boolean; comment?: { id: string; url: string; createdAt: string } | null };
}

/** `linear_comment_on_issue`: a Markdown comment on an issue, as the connected user. */
export function createLinearCommentOnIssue(client: LinearClient) {
  return defineTool({
    name: 'linear_comment_on_issue',
    description:
      'Adds a comment (Markdown) to a Linear issue as the connected user; subscribers of the issue are notified.',
    input: z.object({
      issue_id: issueIdSchema('Which Linear issue should I comment on?'),
      body: z
        .string()
        .trim()
        .min(1)
        .describe('Text of the comment, in Markdown')
        .meta({ question: 'What should the comment say?' }),
    }),
    effect: 'write',
    requiredScopes: [commentsCreate],
    async execute(input, context) {
      const issueId = await resolveIssueId(client, context.credentials, input.issue_id, context.signal);
      const data = await client.graphql<CommentData>(context.credentials, {
        query: createComment,
        variables: { input: { issueId, body: input.body } },
        requiredScopes: [commentsCreate],
        signal: context.signal,
      });
      const created = data.commentCreate;
      if (!created?.success || !created.comment) {
        return upstreamError({ userMessage: 'Linear did not add the comment.', retryable: false });
      }
      return success({
        issue_id: input.issue_id,
        comment_id: created.comment.id,
        url: created.comment.url,
        created_at: created.comment.createdAt,
      });
    },
  });
}
