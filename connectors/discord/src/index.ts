export {
  createDiscordClient,
  type DiscordClient,
  type DiscordErrorBody,
  type DiscordRequest,
  defaultDiscordBaseUrl,
} from './discord-client.js';
export { createDiscord, type DiscordSettings, discord } from './discord-connector.js';
export {
  type DiscordPermission,
  discordPermissionBits,
  discordPermissions,
  permissionNames,
} from './discord-permissions.js';
