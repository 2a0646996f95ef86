import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { NotionClient } from '../notion-client.js';
import { type BlockResponse, blockToText, pageProperties, pageTitle } from '../notion-content.js';
import { notionIdSchema } from '../notion-id.js';

interface PageResponse {
  id: string;
  url: string;
  in_trash?: boolean;
  last_edited_time: string;
  parent?: Record<string, unknown> & { type?: string };
  properties: unknown;
}

/** `notion_get_page`: reads a page's title, properties and top-level text. */
export function createNotionGetPage(client: NotionClient) {
  return defineTool({
    name: 'notion_get_page',
    description:
      'Reads one Notion page: its title, URL, properties (for pages in a database) and its text, one line per top-level block. Nested blocks are not expanded; `next_cursor` is set when the page has more blocks than returned.',
    input: z.object({
      page_id: notionIdSchema('The page id or the page URL').meta({
        question: 'Which Notion page do you mean (a link or its id)?',
      }),
      cursor: z
        .string()
        .min(1)
        .optional()
        .describe('The next_cursor of a previous call, to read further blocks of a long page'),
    }),
    effect: 'read',
    requiredScopes: ['read_content'],
    async execute(input, context) {
      const { data: page } = await client.request<PageResponse>(context.credentials, {
        path: `/pages/${input.page_id}`,
        requiredScopes: ['read_content'],
        signal: context.signal,
      });
      const { data: children } = await client.request<{
        results: BlockResponse[];
        has_more: boolean;
        next_cursor: string | null;
      }>(context.credentials, {
        path: `/blocks/${input.page_id}/children`,
        query: { page_size: 100, start_cursor: input.cursor },
        requiredScopes: ['read_content'],
        signal: context.signal,
      });
      const parentType = page.parent?.type;
      return success({
        id: page.id,
        title: pageTitle(page.properties),
        url: page.url,
        in_trash: page.in_trash ?? false,
        last_edited_time: page.last_edited_time,
        parent: parentType ? { type: parentType, id: page.parent?.[parentType] } : undefined,
        properties: pageProperties(page.properties),
        content: children.results.map(blockToText).join('\n'),
        next_cursor: children.has_more ? children.next_cursor : null,
      });
    },
  });
}
