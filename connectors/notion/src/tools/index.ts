import type { AnyTool } from '@patchbay/connector';
import type { NotionClient } from '../notion-client.js';
import { createNotionAppendText } from './append-text.js';
import { createNotionArchivePage } from './archive-page.js';
import { createNotionCreatePage } from './create-page.js';
import { createNotionGetPage } from './get-page.js';
import { createNotionSearch } from './search.js';

/** Every Notion tool, bound to one client: reads first, then writes, then the destructive one. */
export function createNotionTools(client: NotionClient): AnyTool[] {
  return [
    createNotionSearch(client),
    createNotionGetPage(client),
    createNotionCreatePage(client),
    createNotionAppendText(client),
    createNotionArchivePage(client),
  ];
}
