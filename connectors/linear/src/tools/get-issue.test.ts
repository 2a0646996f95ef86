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

describe('linear_get_issue', () => {
  it('gets the issue by identifier with its description, labels and project', async () => {
    const envelope = await call('linear_get_issue', { issue_id: 'ENG-123' });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        identifier: 'ENG-123',
        description: 'Users wait 30 seconds, then see an error.\n\n- Chrome 130',
        creator: 'Grace Hopper',
        project: 'Auth revamp',
        labels: ['Bug', 'customer'],
        due_date: '2026-11-30',
        created_at: '2026-11-18T09:12:44.000Z',
      },
    });
    expect(variablesOf(server.calls[0])).toEqual({ id: 'ENG-123' });
    expect(server.calls[0]?.headers.authorization).toBe(apiKey);
  });

  it('refuses something that is neither an identifier nor a UUID, before any request', async () => {
    const envelope = await call('linear_get_issue', { issue_id: 'the login bug' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });
});
