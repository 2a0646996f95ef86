import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { NotionClient } from '../notion-client.js';
import { pageTitle, plainText } from '../notion-content.js';

interface SearchResult {
  object: 'page' | 'data_source';
  id: string;
  url?: string;
  last_edited_time?: string;
  in_trash?: boolean;
  parent?: { type?: string };
  properties?: unknown;
  title?: unknown;
}

/** `notion_search`: finds pages and databases shared with the integration by title. */
export function createNotionSearch(client: NotionClient) {
  return defineTool({
    name: 'notion_search',
    description:
      'Searches the Notion pages and databases shared with this integration by title. Returns ids, titles and URLs; use an id with notion_get_page or as a parent for notion_create_page.',
    input: z.object({
      query: z
        .string()
        .trim()
        .max(1000)
        .optional()
        .describe('Words to look for in titles; leave empty to list recently edited items'),
      type: z
        .enum(['page', 'data_source'])
        .optional()
        .describe('Only pages, or only databases (data sources); both when omitted'),
      limit: z.number().int().min(1).max(100).default(10).describe('How many results to return (1-100)'),
      cursor: z
        .string()
        .min(1)
        .optional()
        .describe('The next_cursor of a previous search, to get the next results'),
    }),
    effect: 'read',
    requiredScopes: ['read_content'],
    async execute(input, context) {
      const { data } = await client.request<{
        results: SearchResult[];
        has_more: boolean;
        next_cursor: string | null;
      }>(context.credentials, {
        method: 'POST',
        path: '/search',
        requiredScopes: ['read_content'],
        json: {
          query: input.query || undefined,
          filter: input.type ? { property: 'object', value: input.type } : undefined,
          sort: input.query ? undefined : { timestamp: 'last_edited_time', direction: 'descending' },
          page_size: input.limit,
          start_cursor: input.cursor,
        },
        signal: context.signal,
      });
      return success({
        results: data.results.map((result) => ({
          id: result.id,
          type: result.object,
          title: result.object === 'data_source' ? plainText(result.title) : pageTitle(result.properties),
          url: result.url,
          last_edited_time: result.last_edited_time,
          parent_type: result.parent?.type,
        })),
        has_more: data.has_more,
        next_cursor: data.next_cursor,
      });
    },
  });
}
