// Notion's own SDK (@notionhq/client) as the oracle: its endpoint descriptors list each endpoint's
// method, path and the body and query parameters the SDK sends. Every request this connector makes
// must match one of them, with no parameter the SDK does not know.
import {
  appendBlockChildren,
  createPage,
  getPage,
  getSelf,
  listBlockChildren,
  search,
  updatePage,
} from '@notionhq/client/build/src/api-endpoints.js';
import { callToolAsSubject, createTestServer, type RecordedRequest, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import {
  blockListResponse,
  botUser,
  ids,
  pageObject,
  paragraphBlock,
  searchResponse,
} from './fixtures/notion-responses.js';
import { notion } from './notion-connector.js';

interface Endpoint {
  method: string;
  path: (params: { page_id: string; block_id: string }) => string;
  queryParams: readonly string[];
  bodyParams: readonly string[];
}
const endpoints: Endpoint[] = [
  getSelf,
  getPage,
  updatePage,
  createPage,
  search,
  appendBlockChildren,
  listBlockChildren,
];

const api = 'https://api.notion.com/v1';
const server = createTestServer({
  [`GET ${api}/users/me`]: { body: botUser() },
  [`GET ${api}/pages/:id`]: { body: pageObject() },
  [`PATCH ${api}/pages/:id`]: { body: pageObject() },
  [`POST ${api}/pages`]: { body: pageObject() },
  [`POST ${api}/search`]: { body: searchResponse([pageObject()]) },
  [`GET ${api}/blocks/:id/children`]: { body: blockListResponse([paragraphBlock('nb1', 'Hello')]) },
  [`PATCH ${api}/blocks/:id/children`]: { body: blockListResponse([paragraphBlock('nb1', 'Hello')]) },
});
const credentials = { token: 'ntn_test_token_0000000000000000000000' };

function expectDescribed(calls: readonly RecordedRequest[]) {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    const pathname = new URL(call.url).pathname.replace(/^\/v1\//, '');
    // The id in the path is whatever the tool sent; give it to the SDK's path builder as both names.
    const id = pathname.split('/')[1] ?? '';
    const endpoint = endpoints.find(
      (candidate) =>
        candidate.method.toUpperCase() === call.method &&
        candidate.path({ page_id: id, block_id: id }) === pathname,
    );
    expect(endpoint, `${call.method} /${pathname} is not an endpoint of @notionhq/client`).toBeDefined();
    expect(Object.keys(call.searchParams).filter((name) => !endpoint?.queryParams.includes(name))).toEqual(
      [],
    );
    const body = call.body && typeof call.body === 'object' ? call.body : {};
    expect(Object.keys(body).filter((name) => !endpoint?.bodyParams.includes(name))).toEqual([]);
  }
}

const toolCalls: [string, Record<string, unknown>][] = [
  ['notion_search', { query: 'Roadmap', type: 'page', limit: 5 }],
  ['notion_search', {}],
  ['notion_get_page', { page_id: ids.page }],
  ['notion_create_page', { parent_id: ids.parentPage, title: 'Notes', text: 'First line' }],
  ['notion_append_text', { page_id: ids.page, text: 'More' }],
  ['notion_archive_page', { page_id: ids.page }],
];

describe('Notion requests against @notionhq/client’s endpoint descriptors', () => {
  it.each(toolCalls)('%s sends only an SDK endpoint with its parameters', async (name, input) => {
    const tool = notion.tools.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    const envelope = await callToolAsSubject(tool, input, {
      snapshot: snapshotFor(notion, 'connected'),
      credentials,
      setupUrl: notion.setupUrl,
    });
    expect(envelope).toMatchObject({ ok: true });
    expectDescribed(server.calls);
  });

  it('verify() calls only SDK endpoints', async () => {
    await notion.verify(credentials);
    expectDescribed(server.calls);
  });
});
