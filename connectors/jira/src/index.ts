export { connectorFactory, createJira, type JiraSettings, jira } from './jira-connector.js';
