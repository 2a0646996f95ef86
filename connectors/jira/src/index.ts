export { type AdfNode, adfToText, textToAdf } from './adf.js';
export { createJira, type JiraSettings, jira } from './jira-connector.js';
export { readUser, readWork, writeWork } from './jira-scopes.js';
