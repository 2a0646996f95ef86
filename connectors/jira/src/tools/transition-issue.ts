import { defineTool } from '@patchbay/connector';
import { invalidArguments, success } from '@patchbay/envelope';
import { z } from 'zod';
import type { JiraClient } from '../jira-client.js';
import { issueKeySchema } from '../jira-issue.js';
import { writeWork } from '../jira-scopes.js';

/** One workflow transition from `GET /rest/api/3/issue/{key}/transitions`. */
interface Transition {
  id: string;
  name: string;
  to?: { id?: string; name?: string };
}

const same = (left: string | undefined, right: string) =>
  left !== undefined && left.trim().toLowerCase() === right.trim().toLowerCase();

/** `jira_transition_issue`: moves an issue through its workflow to a named status. */
export function createJiraTransitionIssue(client: JiraClient) {
  return defineTool({
    name: 'jira_transition_issue',
    description:
      'Moves a Jira issue to another status through its workflow (e.g. to "In Progress" or "Done"). Give the target status or the transition name; if it is not reachable from the current status, the answer lists the ones that are.',
    input: z.object({
      issue_key: issueKeySchema('Which Jira issue should I move?'),
      status: z
        .string()
        .trim()
        .min(1)
        .describe('Target status name (e.g. In Progress, Done) or the name of the workflow transition')
        .meta({ question: 'Which status should the issue move to?' }),
    }),
    effect: 'write',
    requiredScopes: [writeWork],
    async execute(input, context) {
      const path = `/rest/api/3/issue/${encodeURIComponent(input.issue_key)}/transitions` as const;
      const { data } = await client.request<{ transitions?: Transition[] }>(context.credentials, {
        path,
        requiredScopes: [writeWork],
        signal: context.signal,
      });
      const transitions = data?.transitions ?? [];
      // A status name is what people say; a transition name is what the workflow calls the move.
      const chosen =
        transitions.find((transition) => same(transition.to?.name, input.status)) ??
        transitions.find((transition) => same(transition.name, input.status));
      if (!chosen) {
        const reachable = [
          ...new Set(transitions.map((transition) => transition.to?.name ?? transition.name)),
        ];
        return invalidArguments({
          issues: [
            {
              path: 'status',
              message: reachable.length
                ? `"${input.status}" is not reachable from the current status of ${input.issue_key}; reachable: ${reachable.join(', ')}.`
                : `${input.issue_key} has no transitions available to this user.`,
            },
          ],
          userMessage: `${input.issue_key} cannot move to "${input.status}" from its current status.`,
        });
      }
      await client.request(context.credentials, {
        method: 'POST',
        path,
        json: { transition: { id: chosen.id } },
        requiredScopes: [writeWork],
        signal: context.signal,
      });
      return success({
        issue_key: input.issue_key,
        status: chosen.to?.name ?? input.status,
        transition: chosen.name,
      });
    },
  });
}
