import type { AnyTool, ToolEffect } from '@patchbay/connector';
import type { SlackClient } from '../slack-client.js';
import { createSlackDeleteMessage } from './delete-message.js';
import { createSlackFindUserByEmail } from './find-user-by-email.js';
import { createSlackGetChannelHistory } from './get-channel-history.js';
import { createSlackListChannels } from './list-channels.js';
import { createSlackPostMessage } from './post-message.js';

/** Every Slack tool, bound to one client; reads first, then writes. */
export function createSlackTools(
  client: SlackClient,
  options: { postMessageEffect?: ToolEffect } = {},
): AnyTool[] {
  return [
    createSlackListChannels(client),
    createSlackGetChannelHistory(client),
    createSlackFindUserByEmail(client),
    createSlackPostMessage(client, options.postMessageEffect),
    createSlackDeleteMessage(client),
  ];
}
