import { defineTool } from '@patchbay/connector';
import { success, upstreamError } from '@patchbay/envelope';
import { z } from 'zod';
import type { LinearClient } from '../linear-client.js';
import { resolveTeamId } from '../linear-ids.js';
import { issuesCreate } from '../linear-scopes.js';

const createIssue = `mutation PatchbayCreateIssue($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { id identifier title url } }
}`;

interface CreateData {
  issueCreate: {
    success: boolean;
    issue?: { id: string; identifier: string; title: string; url: string } | null;
  };
}

/** `linear_create_issue`: a new issue in a team. */
export function createLinearCreateIssue(client: LinearClient) {
  return defineTool({
    name: 'linear_create_issue',
    description:
      'Creates a Linear issue in a team (by team key such as ENG, or team id) with a title, an optional Markdown description and priority. Returns the new identifier and link.',
    input: z.object({
      team: z
        .string()
        .trim()
        .min(1)
        .describe('Key of the team (e.g. ENG) or the team id; linear_list_teams lists them')
        .meta({ question: 'Which Linear team should the issue go in?' }),
      title: z
        .string()
        .trim()
        .min(1)
        .max(255)
        .describe('Title of the issue')
        .meta({ question: 'What should the Linear issue be called?' }),
      description: z.string().optional().describe('Description in Markdown'),
      priority: z
        .number()
        .int()
        .min(0)
        .max(4)
        .optional()
        .describe('Priority: 0 none, 1 urgent, 2 high, 3 medium, 4 low'),
    }),
    effect: 'write',
    requiredScopes: [issuesCreate],
    async execute(input, context) {
      const team = await resolveTeamId(client, context.credentials, input.team, context.signal);
      if ('failure' in team) return team.failure;
      const data = await client.graphql<CreateData>(context.credentials, {
        query: createIssue,
        variables: {
          input: {
            teamId: team.id,
            title: input.title,
            ...(input.description?.trim() ? { description: input.description } : {}),
            ...(input.priority !== undefined ? { priority: input.priority } : {}),
          },
        },
        requiredScopes: [issuesCreate],
        signal: context.signal,
      });
      const created = data.issueCreate;
      if (!created?.success || !created.issue) {
        return upstreamError({ userMessage: 'Linear did not create the issue.', retryable: false });
      }
      const { id, identifier, title, url } = created.issue;
      return success({ id, identifier, title, url });
    },
  });
}
