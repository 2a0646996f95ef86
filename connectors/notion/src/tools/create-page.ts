import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { NotionClient } from '../notion-client.js';
import { notionTextSchema, pageTitle, textObjects, textToBlocks } from '../notion-content.js';
import { notionIdSchema } from '../notion-id.js';

/** `notion_create_page`: creates a page under a page or in a database (data source). */
export function createNotionCreatePage(client: NotionClient) {
  return defineTool({
    name: 'notion_create_page',
    description:
      'Creates a Notion page with a title and optional text, under a parent page or as a new entry of a database (data source). The parent must be shared with the integration; find it with notion_search.',
    input: z.object({
      parent_id: notionIdSchema('Id or URL of the parent page, or the data source id of a database').meta({
        question: 'Where should the new page go (which parent page or database)?',
      }),
      parent_type: z
        .enum(['page', 'data_source'])
        .default('page')
        .describe("'page' to nest under a page, 'data_source' to add an entry to a database"),
      title: z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .describe('Title of the new page')
        .meta({ question: 'What should the new page be called?' }),
      content: notionTextSchema('Text of the page').optional(),
    }),
    effect: 'write',
    requiredScopes: ['insert_content'],
    async execute(input, context) {
      const children = input.content ? textToBlocks(input.content) : [];
      const { data } = await client.request<{ id: string; url: string; properties: unknown }>(
        context.credentials,
        {
          method: 'POST',
          path: '/pages',
          requiredScopes: ['insert_content'],
          json: {
            parent:
              input.parent_type === 'data_source'
                ? { type: 'data_source_id', data_source_id: input.parent_id }
                : { type: 'page_id', page_id: input.parent_id },
            // The title property's id is always `title`, whatever a database calls it.
            properties: { title: { title: textObjects(input.title) } },
            children: children.length > 0 ? children : undefined,
          },
          signal: context.signal,
        },
      );
      return success({ id: data.id, url: data.url, title: pageTitle(data.properties) || input.title });
    },
  });
}
