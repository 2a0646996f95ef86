// Synthetic connectors for the benchmark: stand-ins whose execute and verify never touch a network.
// The wire-facing fields (would_enable phrases, setup URLs, scope names, tool names) are shaped after
// the real connectors in connectors/ so their token sizes match; the bench prints that calibration.
import { type Connector, defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { z } from 'zod';

const services: [id: string, name: string, noun: string][] = [
  ['github', 'GitHub', 'issue'],
  ['slack', 'Slack', 'message'],
  ['jira', 'Jira', 'ticket'],
  ['notion', 'Notion', 'page'],
  ['linear', 'Linear', 'issue'],
  ['gmail', 'Gmail', 'email'],
  ['gcalendar', 'Google Calendar', 'event'],
  ['gdrive', 'Google Drive', 'file'],
  ['dropbox', 'Dropbox', 'file'],
  ['asana', 'Asana', 'task'],
  ['trello', 'Trello', 'card'],
  ['hubspot', 'HubSpot', 'contact'],
  ['salesforce', 'Salesforce', 'opportunity'],
  ['zendesk', 'Zendesk', 'ticket'],
  ['intercom', 'Intercom', 'conversation'],
  ['stripe', 'Stripe', 'invoice'],
  ['shopify', 'Shopify', 'order'],
  ['twilio', 'Twilio', 'sms'],
  ['sendgrid', 'SendGrid', 'email'],
  ['discord', 'Discord', 'message'],
  ['teams', 'Microsoft Teams', 'message'],
  ['zoom', 'Zoom', 'meeting'],
  ['figma', 'Figma', 'comment'],
  ['airtable', 'Airtable', 'record'],
  ['confluence', 'Confluence', 'page'],
  ['gitlab', 'GitLab', 'merge_request'],
  ['bitbucket', 'Bitbucket', 'pull_request'],
  ['sentry', 'Sentry', 'issue'],
  ['datadog', 'Datadog', 'monitor'],
  ['pagerduty', 'PagerDuty', 'incident'],
  ['opsgenie', 'Opsgenie', 'alert'],
  ['vercel', 'Vercel', 'deployment'],
  ['netlify', 'Netlify', 'deploy'],
  ['cloudflare', 'Cloudflare', 'dns_record'],
  ['mailchimp', 'Mailchimp', 'campaign'],
  ['calendly', 'Calendly', 'booking'],
  ['docusign', 'DocuSign', 'envelope'],
  ['box', 'Box', 'file'],
  ['onedrive', 'OneDrive', 'file'],
  ['outlook', 'Outlook', 'email'],
  ['quickbooks', 'QuickBooks', 'invoice'],
  ['xero', 'Xero', 'bill'],
  ['monday', 'monday.com', 'item'],
  ['clickup', 'ClickUp', 'task'],
  ['miro', 'Miro', 'board'],
  ['webflow', 'Webflow', 'cms_item'],
  ['freshdesk', 'Freshdesk', 'ticket'],
  ['pipedrive', 'Pipedrive', 'deal'],
  ['typeform', 'Typeform', 'response'],
  ['youtrack', 'YouTrack', 'issue'],
];

const verbs = [
  { verb: 'list', effect: 'read', scope: 'read', text: 'List recent {noun}s in {name}, newest first.' },
  { verb: 'get', effect: 'read', scope: 'read', text: 'Fetch one {name} {noun} by its id, with all fields.' },
  { verb: 'search', effect: 'read', scope: 'read', text: 'Search {name} {noun}s by free text and filters.' },
  {
    verb: 'create',
    effect: 'write',
    scope: 'write',
    text: 'Create a new {name} {noun}. Ask the user for anything missing.',
  },
  { verb: 'update', effect: 'write', scope: 'write', text: 'Change fields of an existing {name} {noun}.' },
  {
    verb: 'delete',
    effect: 'destructive',
    scope: 'admin',
    text: 'Delete a {name} {noun}. Cannot be undone.',
  },
] as const;

function inputFor(verb: string, noun: string) {
  const label = noun.replaceAll('_', ' ');
  if (verb === 'list') {
    return z.object({
      limit: z.number().int().min(1).max(100).optional().describe(`How many ${label}s to return (1-100)`),
      cursor: z.string().optional().describe('Pagination cursor from a previous call'),
    });
  }
  if (verb === 'search') {
    return z.object({
      query: z.string().describe(`Words to look for in the ${label}`),
      since: z.string().optional().describe('Only results updated after this ISO time'),
      limit: z.number().int().optional().describe('Maximum number of results'),
    });
  }
  if (verb === 'create') {
    return z.object({
      title: z
        .string()
        .describe(`Title of the new ${label}`)
        .meta({ question: `What should the ${label} be called?` }),
      body: z.string().optional().describe('Longer description, Markdown allowed'),
      assignee: z.string().optional().describe('User to assign, by handle or email'),
      labels: z.array(z.string().describe('A label name')).optional().describe('Labels to attach'),
    });
  }
  if (verb === 'update') {
    return z.object({
      id: z.string().describe(`Id of the ${label} to change`),
      title: z.string().optional().describe('New title'),
      status: z.enum(['open', 'in_progress', 'done']).optional().describe('New status'),
    });
  }
  return z.object({ id: z.string().describe(`Id of the ${label}`) });
}

// Scope naming styles seen in real services: resource:action (Slack, Resend), action:product-resource
// (Jira), snake_case (Notion), plain words (Linear).
const scopeStyles: ((noun: string) => [read: string, write: string, admin: string])[] = [
  (noun) => [`${noun}s:read`, `${noun}s:write`, `${noun}s:delete`],
  (noun) => [`read:${noun}s`, `write:${noun}s`, `admin:${noun}s`],
  (noun) => [`read_${noun}s`, `update_${noun}s`, `delete_${noun}s`],
  () => ['read', 'write', 'admin'],
];

// Where real services send a user to create a token or install an app.
const setupPaths = [
  'settings/tokens',
  'settings/account/security',
  'developers/applications',
  'profile/integrations',
  'account/api-tokens',
  'api-keys',
];

// Phrased like the real manifests: what the user gets, in their words, 10 to 15 tokens each.
const wouldEnableStyles: ((name: string, nouns: string) => [string, string])[] = [
  (name, nouns) => [
    `Find, read and search your ${name} ${nouns} from chat`,
    `Create ${name} ${nouns} and update existing ones for you`,
  ],
  (name, nouns) => [
    `Look up and triage ${name} ${nouns} without leaving the conversation`,
    `Open new ${name} ${nouns} and change their status for you`,
  ],
  (name, nouns) => [
    `Catch up on recent ${name} ${nouns} and summarise them`,
    `Post and update ${name} ${nouns} when you ask`,
  ],
];

/** `count` synthetic connectors with 3 to 6 tools each, deterministic. */
export function syntheticConnectors(count: number): Connector[] {
  return services.slice(0, count).map(([id, name, noun], index) => {
    const toolCount = 3 + (index % 4);
    const used = verbs.slice(0, toolCount);
    const nouns = `${noun.replaceAll('_', ' ')}s`;
    const [read, write, admin] = scopeStyles[index % scopeStyles.length]!(noun);
    const scopeName = { read, write, admin };
    const host = index % 3 === 0 ? `app.${id}.com` : index % 3 === 1 ? `${id}.com` : `${id}.io`;
    return defineConnector({
      id,
      name,
      description: `${name} workspace access.`,
      auth: {
        kind: 'oauth2',
        scopes: [
          { name: read, description: `Read ${name} data` },
          { name: write, description: `Change ${name} data` },
          { name: admin, description: `Delete ${name} data` },
        ],
      },
      capabilities: used.map((entry) => `${entry.verb} ${nouns}`),
      wouldEnable: wouldEnableStyles[index % wouldEnableStyles.length]!(name, nouns),
      setupUrl: `https://${host}/${setupPaths[index % setupPaths.length]}`,
      tools: used.map((entry) =>
        defineTool({
          name: `${id}_${entry.verb}_${entry.verb === 'list' || entry.verb === 'search' ? `${noun}s` : noun}`,
          description: entry.text.replaceAll('{name}', name).replaceAll('{noun}', noun.replaceAll('_', ' ')),
          input: inputFor(entry.verb, noun),
          effect: entry.effect,
          requiredScopes: [scopeName[entry.scope]],
          execute: async () => success({}),
        }),
      ),
      verify: async () => ({ valid: true, scopes: [read, write, admin] }),
    });
  });
}

/** The scopes a synthetic connector declares, in read, write, admin order (the bench grants from these). */
export function syntheticScopes(connector: Connector): string[] {
  return connector.auth.scopes.map((scope) => scope.name);
}
