import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { ids, notionFailures, pageObject } from '../fixtures/notion-responses.js';
import { notion } from '../notion-connector.js';

const server = createTestServer({
  'PATCH https://api.notion.com/v1/pages/:id': { body: pageObject({ inTrash: true }) },
});
const credentials = { token: 'ntn_test_token_0000000000000000000000' };
const archivePage = notion.tools.find((tool) => tool.name === 'notion_archive_page')!;
const call = (input: unknown, scopes?: string[]) =>
  callToolAsSubject(archivePage, input, {
    snapshot: snapshotFor(notion, 'connected', { scopes }),
    credentials,
  });

describe('notion_archive_page', () => {
  it('is declared destructive and needs update_content', () => {
    expect(archivePage.effect).toBe('destructive');
    expect(archivePage.requiredScopes).toEqual(['update_content']);
  });

  it('moves the page to the trash with PATCH /v1/pages/{id} and in_trash', async () => {
    const envelope = await call({ page_id: ids.page });
    expect(server.calls).toHaveLength(1);
    const [request] = server.calls;
    expect(request).toMatchObject({ method: 'PATCH', url: `https://api.notion.com/v1/pages/${ids.page}` });
    expect(request!.headers.authorization).toBe(`Bearer ${credentials.token}`);
    expect(request!.headers['notion-version']).toBe('2025-09-03');
    expect(request!.body).toEqual({ in_trash: true });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'notion_archive_page' },
      data: { id: ids.page, title: 'Launch plan', url: pageObject().url, in_trash: true },
    });
  });

  it('sends nothing when the integration lacks update_content', async () => {
    const envelope = await call({ page_id: ids.page }, ['read_content', 'insert_content']);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['update_content'],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('names update_content as missing on restricted_resource', async () => {
    server.use({ 'PATCH https://api.notion.com/v1/pages/:id': notionFailures.forbidden });
    const envelope = await call({ page_id: ids.page });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['update_content'],
    });
  });
});
