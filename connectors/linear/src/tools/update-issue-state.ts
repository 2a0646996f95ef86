import { defineTool } from '@patchbay/connector';
import { invalidArguments, success, upstreamError } from '@patchbay/envelope';
import { z } from 'zod';
import type { LinearClient } from '../linear-client.js';
import { issueIdSchema } from '../linear-ids.js';
import { write } from '../linear-scopes.js';

const issueStates = `query PatchbayIssueStates($id: String!) {
  issue(id: $id) {
    id identifier
    state { name }
    team { states { nodes { id name type } } }
  }
}`;

const updateState = `mutation PatchbayUpdateIssueState($id: String!, $stateId: String!) {
  issueUpdate(id: $id, input: { stateId: $stateId }) {
    success
    issue { id identifier url state { name type } }
  }
}`;

interface StatesData {
  issue: {
    id: string;
    identifier: string;
    state?: { name?: string } | null;
    team?: { states?: { nodes?: { id: string; name: string; type: string }[] } } | null;
  };
}

interface UpdateData {
  issueUpdate: {
    success: boolean;
    issue?: { id: string; identifier: string; url: string; state?: { name?: string; type?: string } } | null;
  };
}

/** `linear_update_issue_state`: moves an issue to another workflow state of its team. */
export function createLinearUpdateIssueState(client: LinearClient) {
  return defineTool({
    name: 'linear_update_issue_state',
    description:
      "Moves a Linear issue to another workflow state of its team (e.g. In Progress, Done, Canceled). Give the state name; if the team has no such state, the answer lists the team's states.",
    input: z.object({
      issue_id: issueIdSchema('Which Linear issue should I move?'),
      state: z
        .string()
        .trim()
        .min(1)
        .describe("Name of the target workflow state in the issue's team, e.g. In Progress or Done")
        .meta({ question: 'Which state should the issue move to?' }),
    }),
    effect: 'write',
    requiredScopes: [write],
    async execute(input, context) {
      const { issue } = await client.graphql<StatesData>(context.credentials, {
        query: issueStates,
        variables: { id: input.issue_id },
        requiredScopes: [write],
        signal: context.signal,
      });
      const states = issue.team?.states?.nodes ?? [];
      const wanted = input.state.toLowerCase();
      const target = states.find((state) => state.name.trim().toLowerCase() === wanted);
      if (!target) {
        return invalidArguments({
          issues: [
            {
              path: 'state',
              message: `The team of ${issue.identifier} has no state "${input.state}"; its states: ${states.map((state) => state.name).join(', ')}.`,
            },
          ],
          userMessage: `${issue.identifier} cannot move to "${input.state}": its team has no such state.`,
        });
      }
      const data = await client.graphql<UpdateData>(context.credentials, {
        query: updateState,
        variables: { id: issue.id, stateId: target.id },
        requiredScopes: [write],
        signal: context.signal,
      });
      const updated = data.issueUpdate;
      if (!updated?.success || !updated.issue) {
        return upstreamError({ userMessage: 'Linear did not update the issue.', retryable: false });
      }
      return success({
        identifier: updated.issue.identifier,
        state: updated.issue.state?.name ?? target.name,
        previous_state: issue.state?.name ?? null,
        url: updated.issue.url,
      });
    },
  });
}
