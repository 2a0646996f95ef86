// Eval stand-in connectors: small, realistic connectors (GitHub, Slack, Jira, Linear, Notion shaped)
// whose tools answer from scenario fixtures instead of the network. They exist so the evals never
// depend on the real connector packages being finished, and never touch a network.
import { defineConnector, defineTool } from '@patchbay/connector';
import { notFound, PatchbayError, success } from '@patchbay/envelope';
import { z } from 'zod';

const auth = (scopes = []) => ({
  kind: 'bearer',
  scopes: scopes.map((name) => ({ name, description: `Scope ${name}` })),
});
const verify = async () => ({ valid: true, scopes: [] });

/**
 * Stand-in tools no real connector package has, each with why the stand-in keeps it. Every other
 * stand-in tool carries the name of a real connector's tool (test/stand-ins.test.ts checks both).
 * Scenarios on the real packages (`packages:`) are preferred; these remain for scenarios 01–16 and
 * the cases only a stand-in can play (a tool result carrying chosen text, an error echoing the token).
 */
export const standInOnlyTools = {
  github_list_issues: 'the real connector lists issues through github_search_issues (a search query)',
  github_get_pull_request:
    'the real connector lists pull requests (github_list_pull_requests), no single read',
  slack_read_channel: 'the real read is slack_get_channel_history, which needs a channel id, not a name',
  slack_send_direct_message: 'no real connector sends Slack DMs; the BFCL MessageAPI cases need one',
  slack_share_github_issue: 'a tool that `requires` two connectors: no real connector has one',
  jira_create_ticket: 'Jira-shaped ticket tools with a `priority` question for the BFCL TicketAPI cases',
  jira_get_ticket: 'Jira-shaped ticket tools with a `priority` question for the BFCL TicketAPI cases',
  jira_resolve_ticket: 'Jira-shaped ticket tools with a `priority` question for the BFCL TicketAPI cases',
  notion_search_pages: 'returns fixture text chosen by the scenario (AgentDojo payloads, status claims)',
};

/**
 * Creates the eval stand-in connectors. `fixtures` maps a tool name to the data its calls return
 * (a function of the input, or a value); `log` receives every call that ran, for side-effect checks.
 */
export function createEvalConnectors(fixtures = {}, log = []) {
  const answer = (name, input, fallback, context) => {
    log.push({ tool: name, input });
    // Like a real service, a stand-in refuses a call that does not carry the credentials the user
    // connected its connector with (every stand-in tool is named `<connector>_…`): the gate must hand
    // each tool its own connector's credentials, not none and not another connector's.
    const own = `eval-${name.split('_')[0]}-`;
    if (!Object.values(context?.credentials ?? {}).some((value) => String(value).startsWith(own)))
      throw new PatchbayError('invalid_credentials', 'The request carried no credentials of this service.');
    const fixture = fixtures[name];
    if (fixture === undefined) return success(fallback);
    // A service error that echoes the credential (as some APIs do): the gate must redact it.
    if (fixture && typeof fixture === 'object' && fixture.error_with_credential)
      throw new PatchbayError(
        'not_found',
        `${fixture.error_with_credential} ${Object.values(context?.credentials ?? {}).join(' ')}`,
      );
    // A result that carries the credential (an API echoing the key it was called with).
    if (fixture && typeof fixture === 'object' && fixture.result_with_credential)
      return success({
        note: `${fixture.result_with_credential} ${Object.values(context?.credentials ?? {}).join(' ')}`,
      });
    if (fixture && typeof fixture === 'object' && fixture.not_found)
      return notFound({ userMessage: fixture.not_found });
    return success(fixture);
  };
  const tool = (definition, fallback) =>
    defineTool({
      ...definition,
      execute: async (input, context) => answer(definition.name, input, fallback(input), context),
    });

  const github = defineConnector({
    id: 'github',
    name: 'GitHub',
    description: 'Code hosting: repositories, issues and pull requests.',
    auth: auth(['repo:read', 'issues:write']),
    capabilities: ['list and read issues', 'create issues', 'read pull requests'],
    wouldEnable: ['Triage and open GitHub issues from chat', 'Review pull requests'],
    setupUrl: 'https://patchbay.test/settings/integrations/github',
    verify,
    tools: [
      tool(
        {
          name: 'github_list_issues',
          description: 'List the open issues of a GitHub repository.',
          input: z.object({ repo: z.string().describe('Repository as owner/name') }),
          effect: 'read',
          requiredScopes: ['repo:read'],
        },
        ({ repo }) => [{ number: 42, title: 'Login button does nothing', repo }],
      ),
      tool(
        {
          name: 'github_create_issue',
          description: 'Create an issue in a GitHub repository.',
          input: z.object({
            repo: z
              .string()
              .describe('Repository as owner/name')
              .meta({ question: 'Which repository (owner/name) should the issue go in?' }),
            title: z
              .string()
              .min(3)
              .describe('Issue title')
              .meta({ question: 'What should the issue be titled?' }),
            body: z.string().optional().describe('Issue body in Markdown'),
          }),
          effect: 'write',
          requiredScopes: ['issues:write'],
        },
        ({ repo, title }) => ({ number: 43, url: `https://github.test/${repo}/issues/43`, title }),
      ),
      tool(
        {
          name: 'github_get_pull_request',
          description: 'Get a pull request of a GitHub repository by number.',
          input: z.object({
            repo: z.string().describe('Repository as owner/name'),
            number: z.number().int().describe('Pull request number'),
          }),
          effect: 'read',
          requiredScopes: ['repo:read'],
        },
        ({ repo, number }) => ({ number, repo, title: 'Fix login redirect', state: 'open' }),
      ),
    ],
  });

  const slack = defineConnector({
    id: 'slack',
    name: 'Slack',
    description: 'Team chat: channels, messages and direct messages.',
    auth: auth(),
    capabilities: ['read channels', 'post messages', 'send direct messages'],
    wouldEnable: ['Send messages to channels', 'Post thread replies'],
    setupUrl: 'https://patchbay.test/settings/integrations/slack',
    verify,
    tools: [
      tool(
        {
          name: 'slack_read_channel',
          description: 'Read the latest messages of a Slack channel.',
          input: z.object({ channel: z.string().describe('Channel name without #') }),
          effect: 'read',
        },
        ({ channel }) => ({ channel, messages: [] }),
      ),
      tool(
        {
          name: 'slack_post_message',
          description: 'Post a message to a Slack channel.',
          input: z.object({
            channel: z
              .string()
              .regex(/^[a-z0-9_-]+$/, 'must be a channel name without #, e.g. general')
              .describe('Channel name without #')
              .meta({ question: 'Which channel should I post in?' }),
            text: z
              .string()
              .min(1)
              .describe('Message text')
              .meta({ question: 'What should the message say?' }),
          }),
          effect: 'write',
        },
        ({ channel }) => ({ channel, ts: '1732201200.000100' }),
      ),
      tool(
        {
          name: 'slack_send_direct_message',
          description: 'Send a direct message to a Slack user.',
          input: z.object({
            user: z.string().describe('User name').meta({ question: 'Who should I send it to?' }),
            text: z
              .string()
              .min(1)
              .describe('Message text')
              .meta({ question: 'What should the message say?' }),
          }),
          effect: 'write',
        },
        ({ user }) => ({ user, ts: '1732201200.000200' }),
      ),
      tool(
        {
          name: 'slack_delete_message',
          description: 'Delete a message from a Slack channel.',
          input: z.object({
            channel: z.string().describe('Channel name without #'),
            ts: z.string().describe('Message timestamp id'),
          }),
          effect: 'destructive',
        },
        ({ ts }) => ({ deleted: ts }),
      ),
      tool(
        {
          name: 'slack_share_github_issue',
          description: 'Share a GitHub issue in a Slack channel with its title and link.',
          input: z.object({
            repo: z.string().describe('Repository as owner/name'),
            number: z.number().int().describe('Issue number'),
            channel: z.string().describe('Channel name without #'),
          }),
          effect: 'write',
          requires: ['github'],
        },
        ({ channel, number }) => ({ channel, shared: number }),
      ),
    ],
  });

  const jira = defineConnector({
    id: 'jira',
    name: 'Jira',
    description: 'Issue and ticket tracking.',
    auth: auth(),
    capabilities: ['create tickets', 'read tickets', 'resolve tickets'],
    wouldEnable: ['Create tickets', 'Update issues', 'Add comments'],
    setupUrl: 'https://patchbay.test/settings/integrations/jira',
    verify,
    tools: [
      tool(
        {
          name: 'jira_create_ticket',
          description: 'Create a Jira support ticket.',
          input: z.object({
            title: z
              .string()
              .min(3)
              .describe('Ticket title')
              .meta({ question: 'What should the ticket be titled?' }),
            description: z.string().optional().describe('Ticket description'),
            priority: z
              .number()
              .int()
              .min(1)
              .max(5)
              .describe('Priority from 1 (lowest) to 5 (highest)')
              .meta({ question: 'What priority (1 to 5) should the ticket have?' }),
          }),
          effect: 'write',
        },
        ({ title }) => ({ ticket_id: 7501, title }),
      ),
      tool(
        {
          name: 'jira_get_ticket',
          description: 'Get the details of a Jira ticket by its number.',
          input: z.object({
            ticket_id: z
              .number()
              .int()
              .describe('Ticket number')
              .meta({ question: 'What is the ticket number?' }),
          }),
          effect: 'read',
        },
        ({ ticket_id }) => ({ ticket_id, title: 'Workstation does not boot', status: 'open' }),
      ),
      tool(
        {
          name: 'jira_resolve_ticket',
          description: 'Resolve (close) a Jira ticket by its number, with an optional resolution note.',
          input: z.object({
            ticket_id: z
              .number()
              .int()
              .describe('Ticket number')
              .meta({ question: 'What is the ticket number?' }),
            resolution: z.string().optional().describe('Resolution note'),
          }),
          effect: 'write',
        },
        ({ ticket_id }) => ({ ticket_id, status: 'resolved' }),
      ),
    ],
  });

  const linear = defineConnector({
    id: 'linear',
    name: 'Linear',
    description: 'Product issue tracking.',
    auth: auth(),
    capabilities: ['create issues', 'list issues'],
    wouldEnable: ['Create Linear issues from chat'],
    setupUrl: 'https://patchbay.test/settings/integrations/linear',
    verify,
    tools: [
      tool(
        {
          name: 'linear_create_issue',
          description: 'Create an issue in a Linear team.',
          input: z.object({
            team: z.string().describe('Team key'),
            title: z.string().describe('Issue title'),
          }),
          effect: 'write',
        },
        ({ title }) => ({ id: 'LIN-1', title }),
      ),
    ],
  });

  const notion = defineConnector({
    id: 'notion',
    name: 'Notion',
    description: 'Notes, documents and databases.',
    auth: auth(['pages:read']),
    capabilities: ['search pages', 'read pages'],
    wouldEnable: ['Search and read Notion pages'],
    setupUrl: 'https://patchbay.test/settings/integrations/notion',
    verify,
    tools: [
      tool(
        {
          name: 'notion_search_pages',
          description: 'Search Notion pages by text.',
          input: z.object({ query: z.string().describe('Search text') }),
          effect: 'read',
          requiredScopes: ['pages:read'],
        },
        ({ query }) => [{ id: 'page-1', title: `Notes about ${query}` }],
      ),
    ],
  });

  return [github, slack, jira, linear, notion];
}
