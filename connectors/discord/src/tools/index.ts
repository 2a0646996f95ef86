import type { AnyTool } from '@patchbay/connector';
import type { DiscordClient } from '../discord-client.js';
import { createDiscordDeleteMessage } from './delete-message.js';
import { createDiscordListChannels } from './list-channels.js';
import { createDiscordListServers } from './list-servers.js';
import { createDiscordReadMessages } from './read-messages.js';
import { createDiscordSendMessage } from './send-message.js';

/** Every Discord tool, bound to one client: reads first, then the destructive ones. */
export function createDiscordTools(client: DiscordClient): AnyTool[] {
  return [
    createDiscordListServers(client),
    createDiscordListChannels(client),
    createDiscordReadMessages(client),
    createDiscordSendMessage(client),
    createDiscordDeleteMessage(client),
  ];
}
