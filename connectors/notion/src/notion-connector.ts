import { type Connector, type ConnectorFactory, defineConnector, verifyFailure } from '@patchbay/connector';
import { createNotionClient, type NotionClientSettings } from './notion-client.js';
import { type NotionCapability, notionCapabilities, notionScopes } from './notion-scopes.js';
import { createNotionTools } from './tools/index.js';

/** Settings of {@link createNotion}: `baseUrl`, `fetch`, `headers`, `notionVersion`, `capabilities`. */
export interface NotionSettings extends NotionClientSettings {
  /**
   * The capabilities the integration was given in Notion's integration settings. Notion's API does
   * not report them, so `verify` reports these (all of them unless set) as the granted scopes.
   */
  capabilities?: readonly NotionCapability[];
}

interface BotUser {
  name?: string | null;
  bot?: { workspace_name?: string | null };
}

/** Creates the Notion connector. */
export function createNotion(settings: NotionSettings = {}): Connector {
  const client = createNotionClient(settings);
  const granted = [...(settings.capabilities ?? notionCapabilities)];
  return defineConnector({
    id: 'notion',
    name: 'Notion',
    description: 'Notion is a workspace of pages and databases for notes, docs and project tracking.',
    auth: {
      kind: 'bearer',
      scopes: notionScopes,
      fields: [
        {
          name: 'token',
          description: 'Notion integration secret (internal integration token, starts with ntn_)',
          secret: true,
          env: 'NOTION_TOKEN',
        },
      ],
    },
    capabilities: [
      'search pages and databases',
      'read pages',
      'create pages',
      'append text to pages',
      'trash pages',
    ],
    wouldEnable: [
      'Find and read your Notion pages and databases from chat',
      'Create Notion pages and add notes or summaries to existing ones',
    ],
    setupUrl: 'https://www.notion.so/profile/integrations',
    docsUrl: 'https://developers.notion.com/reference/intro',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: createNotionTools(client),
    async verify(credentials, options) {
      try {
        const { data } = await client.request<BotUser>(credentials, {
          path: '/users/me',
          signal: options?.signal,
        });
        const workspace = data?.bot?.workspace_name;
        const name = data?.name ?? undefined;
        return {
          valid: true,
          scopes: granted,
          identity: name && workspace ? `${name} (${workspace})` : (name ?? workspace ?? undefined),
        };
      } catch (error) {
        return verifyFailure(error);
      }
    },
  });
}

/** The Notion connector with default settings. */
export const notion = createNotion();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<NotionSettings> = createNotion;
