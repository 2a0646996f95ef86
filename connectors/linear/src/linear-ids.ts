import type { Credentials } from '@patchbay/connector';
import { type ErrorEnvelope, invalidArguments } from '@patchbay/envelope';
import { z } from 'zod';
import type { LinearClient } from './linear-client.js';
import { read } from './linear-scopes.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a Linear entity UUID, false for a human identifier such as `ENG-123` or a team key. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/** An issue identifier (`ENG-123`) or UUID, checked before it reaches a query. */
export function issueIdSchema(question: string) {
  return z
    .string()
    .trim()
    .refine(
      (value) => isUuid(value) || /^[A-Za-z][A-Za-z0-9_]*-\d+$/.test(value),
      'must be an issue identifier such as ENG-123 or an issue UUID',
    )
    .describe('Issue identifier such as ENG-123 (or the issue UUID)')
    .meta({ question });
}

const teamByKey = `query PatchbayTeamByKey($key: String!) {
  teams(filter: { key: { eqIgnoreCase: $key } }, first: 1) { nodes { id key } }
}`;

const issueUuid = `query PatchbayIssueId($id: String!) {
  issue(id: $id) { id identifier }
}`;

/** A team UUID as given, or the UUID of the team with that key; an envelope when no team has it. */
export async function resolveTeamId(
  client: LinearClient,
  credentials: Credentials,
  team: string,
  signal: AbortSignal,
): Promise<{ id: string } | { failure: ErrorEnvelope }> {
  if (isUuid(team)) return { id: team };
  const data = await client.graphql<{ teams: { nodes: { id: string; key: string }[] } }>(credentials, {
    query: teamByKey,
    variables: { key: team },
    requiredScopes: [read],
    signal,
  });
  const found = data.teams?.nodes?.[0];
  if (found) return { id: found.id };
  return {
    failure: invalidArguments({
      issues: [{ path: 'team', message: `No team has the key "${team}"; linear_list_teams lists the keys.` }],
    }),
  };
}

/** The UUID of an issue given by identifier (`ENG-123`) or UUID; mutations take the UUID. */
export async function resolveIssueId(
  client: LinearClient,
  credentials: Credentials,
  issue: string,
  signal: AbortSignal,
): Promise<string> {
  if (isUuid(issue)) return issue;
  const data = await client.graphql<{ issue: { id: string } }>(credentials, {
    query: issueUuid,
    variables: { id: issue },
    requiredScopes: [read],
    signal,
  });
  return data.issue.id;
}
