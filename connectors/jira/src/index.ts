export { type AdfNode, adfToText, textToAdf } from './adf.js';
export { createJiraClient, type JiraClient, type JiraRequest } from './jira-client.js';
export { createJira, type JiraSettings, jira } from './jira-connector.js';
export { readUser, readWork, writeWork } from './jira-scopes.js';
