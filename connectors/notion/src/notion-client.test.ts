import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { botUser, searchResponse } from './fixtures/notion-responses.js';
import { createNotion } from './notion-connector.js';

const server = createTestServer();
const credentials = { token: 'ntn_test_token_0000000000000000000000' };

describe('notion client settings', () => {
  it('sends requests to a custom baseUrl with extra headers and another Notion-Version', async () => {
    server.use({ 'POST https://notion-proxy.test/v1/search': { body: searchResponse([]) } });
    const proxied = createNotion({
      baseUrl: 'https://notion-proxy.test/v1/',
      headers: { 'x-trace': 'abc' },
      notionVersion: '2022-06-28',
    });
    const search = proxied.tools.find((tool) => tool.name === 'notion_search')!;
    const envelope = await callToolAsSubject(
      search,
      { query: 'x' },
      { snapshot: snapshotFor(proxied, 'connected'), credentials },
    );
    expect(envelope).toMatchObject({ ok: true, data: { results: [] } });
    expect(server.calls[0]!.headers).toMatchObject({
      'x-trace': 'abc',
      'notion-version': '2022-06-28',
      authorization: `Bearer ${credentials.token}`,
    });
  });

  it('uses a custom fetch for every request', async () => {
    const seen: string[] = [];
    const custom = createNotion({
      fetch: async (input, init) => {
        seen.push(`${init?.method} ${String(input)}`);
        return Response.json(botUser());
      },
    });
    await expect(custom.verify(credentials)).resolves.toMatchObject({ valid: true });
    expect(seen).toEqual(['GET https://api.notion.com/v1/users/me']);
    expect(server.calls).toHaveLength(0);
  });
});
