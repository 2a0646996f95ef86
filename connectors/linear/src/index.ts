export { createLinear, type LinearSettings, linear } from './linear-connector.js';
export { commentsCreate, issuesCreate, read, write } from './linear-scopes.js';
