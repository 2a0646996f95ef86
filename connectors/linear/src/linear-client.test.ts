import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { answerByOperation, teams } from './fixtures/linear-responses.js';
import { createLinear, linear } from './linear-connector.js';

const endpoint = 'https://api.linear.app/graphql';
const server = createTestServer({ [`POST ${endpoint}`]: answerByOperation });
const apiKey = 'lin_api_test0000000000000000000000';
const credentials = { api_key: apiKey };
const call = (name: string, input: unknown, connector = linear, given = credentials) =>
  callConnectorTool(connector, name, input, { credentials: given });

describe('settings', () => {
  it('honours baseUrl, fetch and headers', async () => {
    server.use({ 'POST https://proxy.test/linear/graphql': { body: teams } });
    const seen: string[] = [];
    const proxied = createLinear({
      baseUrl: 'https://proxy.test/linear/',
      headers: { 'x-trace': 'abc' },
      fetch: (url, init) => {
        seen.push(String(url));
        return globalThis.fetch(url, init);
      },
    });
    const envelope = await call('linear_list_teams', {}, proxied);
    expect(envelope).toMatchObject({ ok: true, data: { teams: [{ key: 'ENG' }, { key: 'DES' }] } });
    expect(seen).toEqual(['https://proxy.test/linear/graphql']);
    expect(server.calls[0]?.headers['x-trace']).toBe('abc');
  });
});
