import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { NotionClient } from '../notion-client.js';
import { notionTextSchema, textToBlocks } from '../notion-content.js';
import { notionIdSchema } from '../notion-id.js';

/** `notion_append_text`: adds text blocks to the end of a page. */
export function createNotionAppendText(client: NotionClient) {
  return defineTool({
    name: 'notion_append_text',
    description:
      'Adds text to the end of an existing Notion page (meeting notes, a log entry, a summary). Existing content is left as it is.',
    input: z.object({
      page_id: notionIdSchema('Id or URL of the page to add to').meta({
        question: 'Which Notion page should I add this to (a link or its id)?',
      }),
      text: notionTextSchema('The text to add')
        .refine((text) => text.trim() !== '', { message: 'must not be empty' })
        .meta({ question: 'What should I add to the page?' }),
    }),
    effect: 'write',
    requiredScopes: ['insert_content'],
    async execute(input, context) {
      const { data } = await client.request<{ results: { id: string }[] }>(context.credentials, {
        method: 'PATCH',
        path: `/blocks/${input.page_id}/children`,
        requiredScopes: ['insert_content'],
        json: { children: textToBlocks(input.text) },
        signal: context.signal,
      });
      return success({ page_id: input.page_id, block_ids: data.results.map((block) => block.id) });
    },
  });
}
