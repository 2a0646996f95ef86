import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { dataSourceObject, ids, pageObject, searchResponse } from '../fixtures/notion-responses.js';
import { notion } from '../notion-connector.js';

const server = createTestServer({
  'POST https://api.notion.com/v1/search': {
    body: searchResponse([pageObject(), dataSourceObject()], 'cursor-2'),
  },
});
const credentials = { token: 'ntn_test_token_0000000000000000000000' };
const search = notion.tools.find((tool) => tool.name === 'notion_search')!;
const call = (input: unknown) =>
  callToolAsSubject(search, input, {
    snapshot: snapshotFor(notion, 'connected'),
    credentials,
    setupUrl: notion.setupUrl,
  });

describe('notion_search', () => {
  it('posts the query to /v1/search with the token and the Notion version', async () => {
    await call({ query: 'launch', type: 'page', limit: 5 });
    expect(server.calls).toHaveLength(1);
    const [request] = server.calls;
    expect(request).toMatchObject({ method: 'POST', url: 'https://api.notion.com/v1/search' });
    expect(request!.headers.authorization).toBe(`Bearer ${credentials.token}`);
    expect(request!.headers['notion-version']).toBe('2025-09-03');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      query: 'launch',
      filter: { property: 'object', value: 'page' },
      page_size: 5,
    });
  });

  it('returns titles of pages and data sources, with the cursor for more', async () => {
    const envelope = await call({ query: 'launch' });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'notion_search' },
      data: {
        results: [
          {
            id: ids.page,
            type: 'page',
            title: 'Launch plan',
            url: pageObject().url,
            last_edited_time: '2026-04-02T16:30:00.000Z',
            parent_type: 'page_id',
          },
          {
            id: ids.dataSource,
            type: 'data_source',
            title: 'Engineering tasks',
            url: dataSourceObject().url,
            last_edited_time: '2026-04-01T12:00:00.000Z',
            parent_type: 'database_id',
          },
        ],
        has_more: true,
        next_cursor: 'cursor-2',
      },
    });
  });

  it('lists recently edited items when there is no query, and passes the cursor on', async () => {
    await call({ cursor: 'cursor-2' });
    expect(server.calls[0]!.body).toEqual({
      sort: { timestamp: 'last_edited_time', direction: 'descending' },
      page_size: 10,
      start_cursor: 'cursor-2',
    });
  });

  it('rejects a page size Notion would refuse, without a request', async () => {
    const envelope = await call({ query: 'x', limit: 500 });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });
});
