export { createGithubClient, defaultGithubBaseUrl, githubApiVersion } from './github-client.js';
export { createGithub, type GithubSettings, github, githubSetupUrl } from './github-connector.js';
export { githubScopes, parseGithubScopes } from './github-scopes.js';
