export { connectorFactory, createGithub, type GithubSettings, github } from './github-connector.js';
