export { connectorFactory, createDiscord, type DiscordSettings, discord } from './discord-connector.js';
