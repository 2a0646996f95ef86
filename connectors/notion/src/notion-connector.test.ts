import { describeConnectorConformance } from '@patchbay/testing';
import { ids, notionFailures } from './fixtures/notion-responses.js';
import { createNotion } from './notion-connector.js';

describeConnectorConformance(createNotion(), {
  credentials: { token: 'ntn_000000000000000000000000000000000000000000000' },
  samples: {
    notion_search: { query: 'launch' },
    notion_get_page: { page_id: ids.page },
    notion_create_page: { parent_id: ids.parentPage, title: 'Weekly notes' },
    notion_append_text: { page_id: ids.page, text: 'Decided to ship on Friday.' },
    notion_archive_page: { page_id: ids.page },
  },
  failures: notionFailures,
});
