import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';
import type { NotionClient } from '../notion-client.js';
import { pageTitle } from '../notion-content.js';
import { notionIdSchema } from '../notion-id.js';

/** `notion_archive_page`: moves a page to the trash. */
export function createNotionArchivePage(client: NotionClient) {
  return defineTool({
    name: 'notion_archive_page',
    description:
      "Moves a Notion page (and everything under it) to the trash. It disappears for everyone in the workspace; it can be restored from Notion's trash for a limited time.",
    input: z.object({
      page_id: notionIdSchema('Id or URL of the page to move to the trash').meta({
        question: 'Which Notion page should I move to the trash (a link or its id)?',
      }),
    }),
    effect: 'destructive',
    requiredScopes: ['update_content'],
    async execute(input, context) {
      const { data } = await client.request<{
        id: string;
        url: string;
        in_trash?: boolean;
        properties: unknown;
      }>(context.credentials, {
        method: 'PATCH',
        path: `/pages/${input.page_id}`,
        requiredScopes: ['update_content'],
        json: { in_trash: true },
        signal: context.signal,
      });
      return success({
        id: data.id,
        title: pageTitle(data.properties),
        url: data.url,
        in_trash: data.in_trash ?? true,
      });
    },
  });
}
