export { connectorFactory, createNotion, type NotionSettings, notion } from './notion-connector.js';
