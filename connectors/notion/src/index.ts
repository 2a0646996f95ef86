export {
  createNotionClient,
  defaultNotionBaseUrl,
  defaultNotionVersion,
  type NotionCapability,
  type NotionClient,
  type NotionClientSettings,
  type NotionRequest,
  notionCapabilities,
} from './notion-client.js';
export { createNotion, type NotionSettings, notion } from './notion-connector.js';
export { parseNotionId } from './notion-id.js';
