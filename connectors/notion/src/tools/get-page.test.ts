import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import {
  blockListResponse,
  databasePageObject,
  ids,
  notionFailures,
  pageContent,
  pageObject,
  paragraphBlock,
} from '../fixtures/notion-responses.js';
import { notion } from '../notion-connector.js';

const server = createTestServer({
  'GET https://api.notion.com/v1/pages/:id': { body: pageObject() },
  'GET https://api.notion.com/v1/blocks/:id/children': { body: pageContent() },
});
const credentials = { token: 'ntn_test_token_0000000000000000000000' };
const getPage = notion.tools.find((tool) => tool.name === 'notion_get_page')!;
const call = (input: unknown) =>
  callToolAsSubject(getPage, input, {
    snapshot: snapshotFor(notion, 'connected'),
    credentials,
    setupUrl: notion.setupUrl,
  });

describe('notion_get_page', () => {
  it('reads the page and its blocks as text', async () => {
    const envelope = await call({ page_id: ids.page });
    expect(server.calls.map((request) => `${request.method} ${request.url}`)).toEqual([
      `GET https://api.notion.com/v1/pages/${ids.page}`,
      `GET https://api.notion.com/v1/blocks/${ids.page}/children?page_size=100`,
    ]);
    for (const request of server.calls) {
      expect(request.headers.authorization).toBe(`Bearer ${credentials.token}`);
      expect(request.headers['notion-version']).toBe('2025-09-03');
    }
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'notion_get_page' },
      data: {
        id: ids.page,
        title: 'Launch plan',
        url: pageObject().url,
        in_trash: false,
        last_edited_time: '2026-04-02T16:30:00.000Z',
        parent: { type: 'page_id', id: ids.parentPage },
        properties: { title: 'Launch plan' },
        content: [
          '## Goals',
          'Ship the beta by April.',
          '[x] Write release notes',
          '- Invite 50 testers',
          '[page: Retro notes]',
          '[image]',
        ].join('\n'),
        next_cursor: null,
      },
    });
  });

  it('accepts a Notion URL a user pasted', async () => {
    const url = `https://www.notion.so/acme/Launch-plan-${ids.page.replaceAll('-', '')}?pvs=4`;
    await call({ page_id: url });
    expect(server.calls[0]!.url).toBe(`https://api.notion.com/v1/pages/${ids.page}`);
  });

  it('reduces database properties to plain values', async () => {
    server.use({ 'GET https://api.notion.com/v1/pages/:id': { body: databasePageObject() } });
    const envelope = await call({ page_id: ids.page });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        title: 'Fix login bug',
        parent: { type: 'data_source_id', id: ids.dataSource },
        properties: {
          Name: 'Fix login bug',
          Status: 'In progress',
          Tags: ['auth', 'web'],
          Due: '2026-04-10',
          Estimate: 3,
          Done: false,
        },
      },
    });
  });

  it('pages through long content with the cursor', async () => {
    server.use({
      'GET https://api.notion.com/v1/blocks/:id/children': {
        body: blockListResponse([paragraphBlock('b9', 'More text')], 'cursor-3'),
      },
    });
    const envelope = await call({ page_id: ids.page, cursor: 'cursor-2' });
    expect(server.calls[1]!.searchParams).toEqual({ page_size: '100', start_cursor: 'cursor-2' });
    expect(envelope).toMatchObject({ ok: true, data: { content: 'More text', next_cursor: 'cursor-3' } });
  });

  it('asks which page when none is given, without a request', async () => {
    const envelope = await call({});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'page_id', question: 'Which Notion page do you mean (a link or its id)?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('tells the model an id is malformed, without a request', async () => {
    const envelope = await call({ page_id: 'Launch plan' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect(server.calls).toHaveLength(0);
  });

  it("maps object_not_found to not_found and keeps Notion's hint about sharing", async () => {
    server.use({ 'GET https://api.notion.com/v1/pages/:id': notionFailures.not_found });
    const envelope = await call({ page_id: ids.page });
    expect(envelope).toMatchObject({ ok: false, error_type: 'not_found', connector: 'notion' });
    expect((envelope as { user_message: string }).user_message).toContain('shared with your integration');
  });
});
