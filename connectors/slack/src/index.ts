export {
  createSlackClient,
  defaultSlackBaseUrl,
  type SlackCall,
  type SlackCallResult,
  type SlackClient,
} from './slack-client.js';
export { createSlack, type SlackSettings, slack } from './slack-connector.js';
export { type SlackErrorBody, slackErrorEnvelope, slackErrorType } from './slack-errors.js';
export { parseSlackScopes, slackScopes } from './slack-scopes.js';
