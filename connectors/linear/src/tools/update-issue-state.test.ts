import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { answerByOperation, issueNode, operationOf, variablesOf } from '../fixtures/linear-responses.js';
import { linear } from '../linear-connector.js';

const endpoint = 'https://api.linear.app/graphql';
const server = createTestServer({ [`POST ${endpoint}`]: answerByOperation });
const apiKey = 'lin_api_test0000000000000000000000';
const credentials = { api_key: apiKey };
const call = (name: string, input: unknown, connector = linear, given = credentials) =>
  callConnectorTool(connector, name, input, { credentials: given });

describe('linear_update_issue_state', () => {
  it("finds the state in the issue's team and updates the issue", async () => {
    const envelope = await call('linear_update_issue_state', { issue_id: 'ENG-123', state: 'done' });
    expect(envelope).toMatchObject({
      ok: true,
      data: { identifier: 'ENG-123', state: 'Done', previous_state: 'In Progress', url: issueNode.url },
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayIssueStates', 'PatchbayUpdateIssueState']);
    expect(variablesOf(server.calls[1])).toEqual({ id: issueNode.id, stateId: 's-done' });
  });

  it("lists the team's states when the name is not one, and changes nothing", async () => {
    const envelope = await call('linear_update_issue_state', { issue_id: 'ENG-123', state: 'Shipped' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
      issues: [{ path: 'state', message: expect.stringContaining('Backlog, Todo, In Progress, Done') }],
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayIssueStates']);
  });
});
