import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { LinearClient } from '../linear-client.js';
import { issueIdSchema } from '../linear-ids.js';
import { issueSummary, issueSummarySelection, type LinearIssueNode } from '../linear-issue.js';
import { read } from '../linear-scopes.js';

const getIssue = `query PatchbayIssue($id: String!) {
  issue(id: $id) {${issueSummarySelection}
    description createdAt dueDate
    creator { name }
    project { name }
    labels { nodes { name } }
  }
}`;

interface IssueData {
  issue: LinearIssueNode & {
    description?: string | null;
    createdAt?: string;
    dueDate?: string | null;
    creator?: { name?: string } | null;
    project?: { name?: string } | null;
    labels?: { nodes?: { name: string }[] };
  };
}

/** `linear_get_issue`: one issue with its description (Markdown), labels and project. */
export function createLinearGetIssue(client: LinearClient) {
  return defineTool({
    name: 'linear_get_issue',
    description:
      'Gets one Linear issue by identifier (e.g. ENG-123): title, state, priority, assignee, creator, team, project, labels, due date and the description in Markdown.',
    input: z.object({ issue_id: issueIdSchema('Which Linear issue do you mean (for example ENG-123)?') }),
    effect: 'read',
    requiredScopes: [read],
    async execute(input, context) {
      const { issue } = await client.graphql<IssueData>(context.credentials, {
        query: getIssue,
        variables: { id: input.issue_id },
        requiredScopes: [read],
        signal: context.signal,
      });
      return success({
        ...issueSummary(issue),
        description: issue.description ?? '',
        creator: issue.creator?.name ?? null,
        project: issue.project?.name ?? null,
        labels: (issue.labels?.nodes ?? []).map((label) => label.name),
        due_date: issue.dueDate ?? null,
        created_at: issue.createdAt ?? null,
      });
    },
  });
}
