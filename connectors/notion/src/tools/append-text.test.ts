import { callToolAsSubject, createTestServer, snapshotFor } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { blockListResponse, ids, notionFailures, paragraphBlock } from '../fixtures/notion-responses.js';
import { notion } from '../notion-connector.js';

const server = createTestServer({
  'PATCH https://api.notion.com/v1/blocks/:id/children': {
    body: blockListResponse([
      paragraphBlock('nb1', 'Decided to ship on Friday.'),
      paragraphBlock('nb2', 'Ada'),
    ]),
  },
});
const credentials = { token: 'ntn_test_token_0000000000000000000000' };
const appendText = notion.tools.find((tool) => tool.name === 'notion_append_text')!;
const call = (input: unknown) =>
  callToolAsSubject(appendText, input, {
    snapshot: snapshotFor(notion, 'connected'),
    credentials,
    setupUrl: notion.setupUrl,
  });

describe('notion_append_text', () => {
  it('appends paragraphs to the page with PATCH /v1/blocks/{id}/children', async () => {
    const envelope = await call({ page_id: ids.page, text: 'Decided to ship on Friday.\n\nAda' });
    expect(server.calls).toHaveLength(1);
    const [request] = server.calls;
    expect(request).toMatchObject({
      method: 'PATCH',
      url: `https://api.notion.com/v1/blocks/${ids.page}/children`,
    });
    expect(request!.headers.authorization).toBe(`Bearer ${credentials.token}`);
    expect(request!.body).toEqual({
      children: [
        {
          object: 'block',
          type: 'paragraph',
          paragraph: { rich_text: [{ type: 'text', text: { content: 'Decided to ship on Friday.' } }] },
        },
        {
          object: 'block',
          type: 'paragraph',
          paragraph: { rich_text: [{ type: 'text', text: { content: 'Ada' } }] },
        },
      ],
    });
    expect(envelope).toEqual({
      ok: true,
      meta: { tool: 'notion_append_text' },
      data: { page_id: ids.page, block_ids: ['nb1', 'nb2'] },
    });
  });

  it('splits text longer than 2,000 characters into several text objects of one block', async () => {
    await call({ page_id: ids.page, text: 'a'.repeat(4500) });
    const body = server.calls[0]!.body as {
      children: { paragraph: { rich_text: { text: { content: string } }[] } }[];
    };
    expect(body.children).toHaveLength(1);
    expect(body.children[0]!.paragraph.rich_text.map((item) => item.text.content.length)).toEqual([
      2000, 2000, 500,
    ]);
  });

  it('asks what to add when the text is missing, without a request', async () => {
    const envelope = await call({ page_id: ids.page });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      missing: [{ field: 'text', question: 'What should I add to the page?' }],
    });
    expect(server.calls).toHaveLength(0);
  });

  it('names insert_content as missing on restricted_resource', async () => {
    server.use({ 'PATCH https://api.notion.com/v1/blocks/:id/children': notionFailures.forbidden });
    const envelope = await call({ page_id: ids.page, text: 'x' });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['insert_content'],
    });
  });
});
