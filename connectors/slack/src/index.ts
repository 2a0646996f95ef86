export { connectorFactory, createSlack, type SlackSettings, slack } from './slack-connector.js';
