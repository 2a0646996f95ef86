import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { LinearClient } from '../linear-client.js';
import { read } from '../linear-scopes.js';

const listTeams = `query PatchbayTeams($first: Int) {
  teams(first: $first) { nodes { id key name } }
}`;

/** `linear_list_teams`: the teams the user can see, with the keys issues are created under. */
export function createLinearListTeams(client: LinearClient) {
  return defineTool({
    name: 'linear_list_teams',
    description:
      'Lists the Linear teams the connected user can see, with each team key (e.g. ENG) and id; use it to find the team for a new issue.',
    input: z.object({
      max_results: z
        .number()
        .int()
        .min(1)
        .max(250)
        .default(100)
        .describe('How many teams to return (default 100)'),
    }),
    effect: 'read',
    requiredScopes: [read],
    async execute(input, context) {
      const data = await client.graphql<{ teams: { nodes: { id: string; key: string; name: string }[] } }>(
        context.credentials,
        {
          query: listTeams,
          variables: { first: input.max_results },
          requiredScopes: [read],
          signal: context.signal,
        },
      );
      return success({ teams: (data.teams?.nodes ?? []).map(({ id, key, name }) => ({ id, key, name })) });
    },
  });
}
