import type { Scope } from '@patchbay/connector';

/** Notion integration capabilities this connector models as scopes. */
export const notionCapabilities = ['read_content', 'update_content', 'insert_content'] as const;
/** One Notion integration capability, named as a scope. */
export type NotionCapability = (typeof notionCapabilities)[number];

/** The capabilities as the manifest declares them, with what each allows. */
export const notionScopes: Scope[] = [
  { name: 'read_content', description: 'Read pages, databases and blocks shared with the integration' },
  { name: 'update_content', description: 'Change existing pages, including moving them to the trash' },
  { name: 'insert_content', description: 'Create pages and add blocks to pages' },
];
