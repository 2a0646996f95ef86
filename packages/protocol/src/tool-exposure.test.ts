import { describe, expect, it } from 'vitest';
import { allConnectors, snapshotOf } from '../test/fixtures.ts';
import { toAiSdkTools } from './ai-sdk.js';
import { describeCapabilities } from './capabilities.js';
import { isMetaTool, refreshConnectorStatusTool } from './meta-tool.js';
import { toLanguageModelTools } from './model-tools.js';
import { exposedTools, unavailableTools } from './tool-exposure.js';

const connectors = allConnectors();

const snapshot = snapshotOf({
  github: { status: 'connected', scopes: ['repo'] },
  jira: { status: 'connected' },
  linear: { status: 'disabled_by_admin' },
  slack: { status: 'invalid_credentials', error: 'Token revoked.' },
});

describe('exposedTools', () => {
  it('exposes tools whose connector is connected, scopes granted and required connectors connected; meta-tool last', () => {
    expect(exposedTools(snapshot, connectors).map((tool) => tool.name)).toEqual([
      'github_list_repos',
      'jira_create_ticket',
      'refresh_connector_status',
    ]);
  });

  it('adds tools when their scope is granted or their required connector connects', () => {
    const fuller = snapshotOf({
      github: { status: 'connected', scopes: ['repo', 'issues:write'] },
      slack: { status: 'connected', scopes: ['chat:write'] },
    });
    expect(exposedTools(fuller, connectors).map((tool) => tool.name)).toEqual([
      'github_create_issue',
      'github_list_repos',
      'github_share_pr_in_slack',
      'slack_list_channels',
      'slack_send_message',
      'refresh_connector_status',
    ]);
  });

  it('exports the meta-tool with an empty-object schema and can leave it out', () => {
    expect(refreshConnectorStatusTool).toMatchObject({
      name: 'refresh_connector_status',
      inputJsonSchema: { type: 'object', properties: {} },
    });
    expect(isMetaTool(refreshConnectorStatusTool)).toBe(true);
    expect(exposedTools(snapshot, connectors, { includeMetaTool: false }).some(isMetaTool)).toBe(false);
  });

  it('converts to AI SDK tools and language-model function tools in the same order', () => {
    const tools = exposedTools(snapshot, connectors);
    const set = toAiSdkTools(tools);
    expect(Object.keys(set)).toEqual(tools.map((tool) => tool.name));
    expect(set.github_list_repos?.description).toBe(tools[0]?.description);
    expect(set.github_list_repos?.execute).toBeUndefined();
    const modelTools = toLanguageModelTools(tools);
    expect(modelTools.at(-1)).toEqual({
      type: 'function',
      name: 'refresh_connector_status',
      description: refreshConnectorStatusTool.description,
      inputSchema: refreshConnectorStatusTool.inputJsonSchema,
    });
    expect(modelTools[0]?.inputSchema).toMatchObject({ properties: { query: { type: 'string' } } });
  });

  it('routes AI SDK tool execution to the given handler', async () => {
    const calls: unknown[] = [];
    const set = toAiSdkTools(exposedTools(snapshot, connectors), {
      execute: async (name, input) => {
        calls.push([name, input]);
        return { ok: true, data: null };
      },
    });
    const result = await set.jira_create_ticket?.execute?.({ query: 'x' }, {
      toolCallId: '1',
      messages: [],
    } as never);
    expect(result).toEqual({ ok: true, data: null });
    expect(calls).toEqual([['jira_create_ticket', { query: 'x' }]]);
  });
});

describe('unavailableTools', () => {
  it('names the reason: status, missing scope, another connector', () => {
    const byName = Object.fromEntries(
      unavailableTools(snapshot, connectors).map((tool) => [tool.name, tool]),
    );
    expect(byName.slack_send_message?.reason).toEqual({
      kind: 'not_connected',
      connectorId: 'slack',
      status: 'invalid_credentials',
    });
    expect(byName.github_create_issue?.reason).toEqual({
      kind: 'missing_scopes',
      connectorId: 'github',
      scopes: ['issues:write'],
    });
    expect(byName.github_create_issue?.message).toContain('issues:write');
    expect(byName.github_share_pr_in_slack?.reason).toEqual({
      kind: 'requires_connector',
      connectorId: 'github',
      requiredConnectorId: 'slack',
      requiredStatus: 'invalid_credentials',
    });
  });

  it('leaves out tools of disabled connectors and tools that need a disabled connector', () => {
    const names = unavailableTools(snapshot, connectors).map((tool) => tool.name);
    expect(names).not.toContain('linear_create_issue');
    expect(names).not.toContain('jira_sync_linear');
    expect(
      JSON.stringify(unavailableTools(snapshot, connectors).map(({ tool: _tool, ...rest }) => rest)),
    ).not.toMatch(/linear/);
  });
});

describe('describeCapabilities', () => {
  it('groups ready now and available after setup, with setup URL and reason', () => {
    const capabilities = describeCapabilities(snapshot, connectors);
    expect(capabilities.readyNow).toEqual([
      {
        connectorId: 'github',
        name: 'GitHub',
        capabilities: ['list repositories', 'open issues'],
        tools: ['github_list_repos'],
      },
      { connectorId: 'jira', name: 'Jira', capabilities: ['create tickets'], tools: ['jira_create_ticket'] },
    ]);
    const setup = Object.fromEntries(
      capabilities.availableAfterSetup.map((item) => [item.connectorId, item]),
    );
    expect(setup.slack).toMatchObject({
      status: 'invalid_credentials',
      setupUrl: 'https://app.example.com/settings/integrations/slack',
      reason: 'Slack needs to be reconnected: Token revoked.',
      tools: ['slack_list_channels', 'slack_send_message'],
    });
    expect(setup.github).toMatchObject({
      status: 'connected',
      missingScopes: ['issues:write'],
      requiredConnectorIds: ['slack'],
      tools: ['github_create_issue', 'github_share_pr_in_slack'],
    });
    expect(setup.github?.reason).toBe(
      'Some GitHub tools need the user to grant GitHub the scope issues:write and connect Slack as well.',
    );
  });

  it('never mentions a disabled connector', () => {
    const text = JSON.stringify(describeCapabilities(snapshot, connectors));
    expect(text).not.toMatch(/linear/i);
  });

  it('says when a rate limit lifts', () => {
    const limited = snapshotOf({ slack: { status: 'rate_limited', retryAfter: '2026-11-21T15:30:00Z' } });
    const [slack] = describeCapabilities(limited, connectors).availableAfterSetup;
    expect(slack).toMatchObject({
      retryAfter: '2026-11-21T15:30:00Z',
      reason: 'Slack is rate limited until 2026-11-21T15:30:00Z.',
    });
  });
});
