import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { answerByOperation, variablesOf } from '../fixtures/linear-responses.js';
import { linear } from '../linear-connector.js';

const endpoint = 'https://api.linear.app/graphql';
const server = createTestServer({ [`POST ${endpoint}`]: answerByOperation });
const apiKey = 'lin_api_test0000000000000000000000';
const credentials = { api_key: apiKey };
const call = (name: string, input: unknown, connector = linear, given = credentials) =>
  callConnectorTool(connector, name, input, { credentials: given });

describe('linear_list_teams', () => {
  it('lists teams with their keys', async () => {
    const envelope = await call('linear_list_teams', {});
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        teams: [
          { key: 'ENG', name: 'Engineering' },
          { key: 'DES', name: 'Design' },
        ],
      },
    });
    expect(variablesOf(server.calls[0])).toEqual({ first: 100 });
  });
});
