import {
  type Connector,
  type ConnectorFactory,
  type ConnectorSettings,
  defineConnector,
  type VerifyResult,
  verifyFailure,
} from '@patchbay/connector';
import { createSlackClient } from './slack-client.js';
import { slackErrorType } from './slack-errors.js';
import { parseSlackScopes, slackScopes } from './slack-scopes.js';
import { createSlackTools } from './tools/index.js';

/** Settings of {@link createSlack}: `baseUrl`, `fetch`, `headers`, and how risky posting counts as. */
export interface SlackSettings extends ConnectorSettings {
  /**
   * Effect of `slack_post_message`: `write` by default (a message to colleagues); `destructive`
   * makes every post go through approval, e.g. for workspaces with Slack Connect channels where a
   * post reaches people outside the organization.
   */
  postMessageEffect?: 'write' | 'destructive';
}

/** What `auth.test` answers for a valid token. */
interface AuthTestResponse {
  url?: string;
  team?: string;
  user?: string;
  team_id?: string;
  user_id?: string;
  bot_id?: string;
}

/** Creates the Slack connector: channels, messages and people through the Slack Web API. */
export function createSlack(settings: SlackSettings = {}): Connector {
  const client = createSlackClient(settings);
  const declaredScopes = slackScopes.map((scope) => scope.name);
  return defineConnector({
    id: 'slack',
    name: 'Slack',
    description: 'Slack is a team messaging workspace of channels, threads and direct messages.',
    auth: {
      kind: 'bearer',
      scopes: slackScopes,
      fields: [
        {
          name: 'token',
          description: 'Bot User OAuth Token of a Slack app installed in the workspace (starts with xoxb-)',
          secret: true,
          env: 'SLACK_BOT_TOKEN',
        },
      ],
    },
    capabilities: [
      'list channels',
      'read channel messages',
      'find people by email',
      'post messages and thread replies',
      'delete messages it posted',
    ],
    wouldEnable: [
      'Read what was said in your Slack channels and catch up from chat',
      'Post updates and thread replies to Slack channels for you',
    ],
    setupUrl: 'https://api.slack.com/apps',
    docsUrl: 'https://docs.slack.dev/reference/methods',
    // Stored credentials are bound to this origin: a changed baseUrl makes them invalid, never sent.
    origin: client.origin,
    defaultOrigin: client.defaultOrigin,
    tools: createSlackTools(client, { postMessageEffect: settings.postMessageEffect }),
    async verify(credentials, options): Promise<VerifyResult> {
      try {
        const result = await client.call<AuthTestResponse>(credentials, 'auth.test', {
          signal: options?.signal,
        });
        if (!result.ok) {
          const type = slackErrorType(result.error);
          if (type === 'invalid_credentials') {
            return { valid: false, reason: 'invalid_credentials', message: result.envelope.user_message };
          }
          if (type === 'rate_limited') {
            return {
              valid: false,
              reason: 'rate_limited',
              message: result.envelope.user_message,
              retryAfterS: result.envelope.retry_after_s,
            };
          }
          return { valid: false, reason: 'unreachable', message: result.envelope.user_message };
        }
        // Slack reports the token's scopes in this header on every Web API response.
        const header = result.headers.get('x-oauth-scopes');
        const { user, team } = result.data;
        return {
          valid: true,
          scopes: header === null ? declaredScopes : parseSlackScopes(header),
          identity: user && team ? `${user} in ${team}` : (user ?? team),
        };
      } catch (error) {
        return verifyFailure(error);
      }
    },
  });
}

/** The Slack connector with default settings. */
export const slack = createSlack();

/** The connector this package declares: Patchbay's CLI calls it with the user's settings. */
export const connectorFactory: ConnectorFactory<SlackSettings> = createSlack;
