import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import {
  answerByOperation,
  graphqlHeaders,
  operationOf,
  teams,
  variablesOf,
} from '../fixtures/linear-responses.js';
import { linear } from '../linear-connector.js';

const endpoint = 'https://api.linear.app/graphql';
const server = createTestServer({ [`POST ${endpoint}`]: answerByOperation });
const apiKey = 'lin_api_test0000000000000000000000';
const credentials = { api_key: apiKey };
const call = (name: string, input: unknown, connector = linear, given = credentials) =>
  callConnectorTool(connector, name, input, { credentials: given });

describe('linear_create_issue', () => {
  it('resolves a team key, then creates the issue with the team id', async () => {
    const envelope = await call('linear_create_issue', {
      team: 'eng',
      title: 'Login page times out',
      description: 'Users wait **30 s**.',
      priority: 2,
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        identifier: 'ENG-124',
        url: 'https://linear.app/acme/issue/ENG-124/login-page-times-out',
      },
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayTeamByKey', 'PatchbayCreateIssue']);
    expect(variablesOf(server.calls[0])).toEqual({ key: 'eng' });
    expect(variablesOf(server.calls[1])).toEqual({
      input: {
        teamId: teams.data.teams.nodes[0]!.id,
        title: 'Login page times out',
        description: 'Users wait **30 s**.',
        priority: 2,
      },
    });
    expect(server.calls[1]?.headers.authorization).toBe(apiKey);
  });

  it('uses a team id as it is, in one request', async () => {
    await call('linear_create_issue', { team: teams.data.teams.nodes[1]!.id, title: 'Icons' });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayCreateIssue']);
    expect(variablesOf(server.calls[0])).toEqual({
      input: { teamId: teams.data.teams.nodes[1]!.id, title: 'Icons' },
    });
  });

  it('points at linear_list_teams when no team has the key, and creates nothing', async () => {
    server.use({
      [`POST ${endpoint}`]: (request) =>
        operationOf(request) === 'PatchbayTeamByKey'
          ? { headers: graphqlHeaders, body: { data: { teams: { nodes: [] } } } }
          : answerByOperation(request),
    });
    const envelope = await call('linear_create_issue', { team: 'NOPE', title: 'x' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
      issues: [{ path: 'team', message: expect.stringContaining('linear_list_teams') }],
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayTeamByKey']);
  });

  it('asks for the team and the title when both are missing', async () => {
    const envelope = await call('linear_create_issue', {});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: expect.arrayContaining([
        { field: 'team', question: 'Which Linear team should the issue go in?' },
        { field: 'title', question: 'What should the Linear issue be called?' },
      ]),
    });
    expect(server.calls).toHaveLength(0);
  });

  it('reports success: false as an upstream failure', async () => {
    server.use({
      [`POST ${endpoint}`]: { body: { data: { issueCreate: { success: false, issue: null } } } },
    });
    const envelope = await call('linear_create_issue', { team: teams.data.teams.nodes[0]!.id, title: 'x' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'upstream_error', retryable: false });
  });
});
