import type { Connector, ConnectorStatusEntry, StatusSnapshot, VerifyResult } from '@patchbay/connector';
import { createFixtureConnector, type FixtureToolSpec } from '@patchbay/testing';
import { z } from 'zod';

/** Test stand-in connectors: real `defineConnector` definitions whose tools never touch a network. */
type VerifyFunction = Connector['verify'];

const okVerify: VerifyFunction = async () => ({ valid: true, scopes: [] }) satisfies VerifyResult;

function tool(
  name: string,
  options: { scopes?: string[]; requires?: string[]; effect?: 'read' | 'write' } = {},
): FixtureToolSpec {
  return {
    name,
    description: `Stand-in tool ${name} used by the protocol tests.`,
    input: z.object({ query: z.string().describe('What to look for') }),
    effect: options.effect ?? 'read',
    requiredScopes: options.scopes ?? [],
    requires: options.requires ?? [],
  };
}

/** GitHub-like connector: a read tool, a scoped write tool, and one that also needs Slack. */
export function githubConnector(verify: VerifyFunction = okVerify): Connector {
  return createFixtureConnector({
    id: 'github',
    name: 'GitHub',
    description: 'Code hosting.',
    scopes: [
      { name: 'repo', description: 'Read repositories' },
      { name: 'issues:write', description: 'Open issues' },
    ],
    capabilities: ['list repositories', 'open issues'],
    wouldEnable: ['Open and triage GitHub issues from chat'],
    setupUrl: 'https://app.example.com/settings/integrations/github',
    tools: [
      tool('github_list_repos', { scopes: ['repo'] }),
      tool('github_create_issue', { scopes: ['issues:write'], effect: 'write' }),
      tool('github_share_pr_in_slack', { requires: ['slack'] }),
    ],
    verify,
  });
}

/** Slack-like connector. */
export function slackConnector(verify: VerifyFunction = okVerify): Connector {
  return createFixtureConnector({
    id: 'slack',
    name: 'Slack',
    description: 'Team chat.',
    scopes: [{ name: 'chat:write', description: 'Post messages' }],
    capabilities: ['post messages'],
    wouldEnable: ['Send messages to channels', 'Reply in threads'],
    setupUrl: 'https://app.example.com/settings/integrations/slack',
    tools: [
      tool('slack_send_message', { scopes: ['chat:write'], effect: 'write' }),
      tool('slack_list_channels'),
    ],
    verify,
  });
}

/** Jira-like connector. */
export function jiraConnector(verify: VerifyFunction = okVerify): Connector {
  return createFixtureConnector({
    id: 'jira',
    name: 'Jira',
    description: 'Issue tracking.',
    auth: { kind: 'api_key' },
    capabilities: ['create tickets'],
    wouldEnable: ['Create and update Jira tickets'],
    setupUrl: 'https://app.example.com/settings/integrations/jira',
    tools: [
      tool('jira_create_ticket', { effect: 'write' }),
      tool('jira_sync_linear', { requires: ['linear'] }),
    ],
    verify,
  });
}

/** Linear-like connector, the one tests disable by admin policy. */
export function linearConnector(verify: VerifyFunction = okVerify): Connector {
  return createFixtureConnector({
    id: 'linear',
    name: 'Linear',
    description: 'Product issue tracking.',
    auth: { kind: 'api_key' },
    capabilities: ['create issues'],
    wouldEnable: ['Create Linear issues'],
    setupUrl: 'https://app.example.com/settings/integrations/linear',
    tools: [
      tool('linear_create_issue', { effect: 'write' }),
      tool('linear_notify_slack', { requires: ['slack'] }),
    ],
    verify,
  });
}

/** The four stand-in connectors, in a deliberately unsorted order. */
export function allConnectors(): Connector[] {
  return [slackConnector(), linearConnector(), githubConnector(), jiraConnector()];
}

type EntryInput = Omit<ConnectorStatusEntry, 'id' | 'scopes'> & { scopes?: string[] };

/** Builds a snapshot by hand, so tests can control insertion order and every field. */
export function snapshotOf(
  entries: Record<string, EntryInput>,
  capturedAt = '2026-11-21T15:00:00Z',
  subject = 'ana',
): StatusSnapshot {
  const connectors: Record<string, ConnectorStatusEntry> = {};
  for (const [id, entry] of Object.entries(entries))
    connectors[id] = { id, ...entry, scopes: entry.scopes ?? [] };
  return { subject, capturedAt, connectors, unknownConnectorIds: [] };
}
