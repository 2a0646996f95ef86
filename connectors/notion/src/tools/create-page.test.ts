import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { ids, notionError, notionFailures, pageObject } from '../fixtures/notion-responses.js';
import { notion } from '../notion-connector.js';

const server = createTestServer({
  'POST https://api.notion.com/v1/pages': { body: pageObject({ title: 'Weekly notes' }) },
});
const credentials = { token: 'ntn_test_token_0000000000000000000000' };
const createPage = notion.tools.find((tool) => tool.name === 'notion_create_page')!;
const call = (input: unknown) =>
  callToolAsSubject(createPage, input, {
    snapshot: snapshotFor(notion, 'connected'),
    credentials,
    setupUrl: notion.setupUrl,
  });
const title = (text: string) => ({ title: [{ type: 'text', text: { content: text } }] });

describe('notion_create_page', () => {
  it('creates a page under a parent page with text blocks', async () => {
    const envelope = await call({
      parent_id: ids.parentPage,
      title: 'Weekly notes',
      content: '# Decisions\nShip on Friday.\n\n- Ada owns the release\n1. Tag the build',
    });
    expect(server.calls).toHaveLength(1);
    const [request] = server.calls;
    expect(request).toMatchObject({ method: 'POST', url: 'https://api.notion.com/v1/pages' });
    expect(request!.headers.authorization).toBe(`Bearer ${credentials.token}`);
    expect(request!.headers['notion-version']).toBe('2025-09-03');
    const text = (content: string) => ({ rich_text: [{ type: 'text', text: { content } }] });
    expect(request!.body).toEqual({
      parent: { type: 'page_id', page_id: ids.parentPage },
      properties: { title: title('Weekly notes') },
      children: [
        { object: 'block', type: 'heading_1', heading_1: text('Decisions') },
        { object: 'block', type: 'paragraph', paragraph: text('Ship on Friday.') },
        { object: 'block', type: 'bulleted_list_item', bulleted_list_item: text('Ada owns the release') },
        { object: 'block', type: 'numbered_list_item', numbered_list_item: text('Tag the build') },
      ],
    });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'notion_create_page' },
      data: { id: ids.page, url: pageObject({ title: 'Weekly notes' }).url, title: 'Weekly notes' },
    });
  });

  it('adds an entry to a database through its data source, without children when there is no text', async () => {
    await call({ parent_id: ids.dataSource, parent_type: 'data_source', title: 'Fix login bug' });
    expect(server.calls[0]!.body).toEqual({
      parent: { type: 'data_source_id', data_source_id: ids.dataSource },
      properties: { title: title('Fix login bug') },
    });
  });

  it('asks for the parent and the title when both are missing, without a request', async () => {
    const envelope = await call({});
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [
        { field: 'parent_id', question: 'Where should the new page go (which parent page or database)?' },
        { field: 'title', question: 'What should the new page be called?' },
      ],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('refuses more blocks than Notion takes in one request, before sending anything', async () => {
    const content = Array.from({ length: 101 }, (_, index) => `Paragraph ${index}`).join('\n\n');
    const envelope = await call({ parent_id: ids.parentPage, title: 'Long', content });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'invalid_arguments',
      issues: [{ path: 'content' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('names the missing capability when Notion answers restricted_resource', async () => {
    server.use({ 'POST https://api.notion.com/v1/pages': notionFailures.forbidden });
    const envelope = await call({ parent_id: ids.parentPage, title: 'Weekly notes' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['insert_content'],
      setup_url: notion.setupUrl,
    });
  });

  it('maps validation_error to invalid_arguments with Notion message', async () => {
    const message = 'body failed validation: body.parent.page_id should be a valid uuid.';
    server.use({
      'POST https://api.notion.com/v1/pages': {
        status: 400,
        body: notionError(400, 'validation_error', message),
      },
    });
    const envelope = await call({ parent_id: ids.parentPage, title: 'Weekly notes' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
    expect((envelope as { user_message: string }).user_message).toContain(message);
  });

  it('maps conflict_error to conflict', async () => {
    server.use({
      'POST https://api.notion.com/v1/pages': {
        status: 409,
        body: notionError(409, 'conflict_error', 'Conflict occurred while saving. Please try again.'),
      },
    });
    const envelope = await call({ parent_id: ids.parentPage, title: 'Weekly notes' });
    expect(envelope).toMatchObject({ ok: false, error_type: 'conflict' });
  });

  it("waits as long as Notion's Retry-After says when rate limited", async () => {
    server.use({
      'POST https://api.notion.com/v1/pages': {
        ...notionFailures.rate_limited,
        headers: { 'retry-after': '7' },
      },
    });
    const envelope = await call({ parent_id: ids.parentPage, title: 'Weekly notes' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'rate_limited',
      retry_after_s: 7,
      retryable: true,
    });
  });

  it('maps service_unavailable to upstream_error and gateway_timeout to timeout', async () => {
    server.use({
      'POST https://api.notion.com/v1/pages': [
        { status: 503, body: notionError(503, 'service_unavailable', 'Notion is unavailable.') },
        { status: 504, body: notionError(504, 'gateway_timeout', 'Notion timed out.') },
      ],
    });
    const input = { parent_id: ids.parentPage, title: 'Weekly notes' };
    expect(await call(input)).toMatchObject({ ok: false, error_type: 'upstream_error', retryable: true });
    expect(await call(input)).toMatchObject({ ok: false, error_type: 'timeout' });
  });
});
