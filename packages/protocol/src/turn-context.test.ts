import { describe, expect, it } from 'vitest';
import { allConnectors, snapshotOf } from '../test/fixtures.ts';
import { connectorStatusWire, renderTurnContext } from './turn-context.js';

const connectors = allConnectors();

describe('renderTurnContext', () => {
  it('writes the exact block: current time, capture time and sorted compact JSON', () => {
    const snapshot = snapshotOf({
      slack: { status: 'not_configured' },
      github: { status: 'connected', scopes: ['repo'] },
    });
    expect(renderTurnContext(snapshot, { connectors })).toBe(
      '<current_time>2026-11-21T15:00:00Z</current_time>\n' +
        '<connector_status captured_at="2026-11-21T15:00:00Z">' +
        '{"github":{"scopes":["repo"],"status":"connected","tools":["github_list_repos"]},' +
        '"slack":{"setup_url":"https://app.example.com/settings/integrations/slack","status":"not_configured",' +
        '"would_enable":["Send messages to channels","Reply in threads"]}}' +
        '</connector_status>',
    );
  });

  it("puts a status JSON rendered before into the block as it is, with this capture's times", () => {
    const snapshot = snapshotOf({ github: { status: 'connected', scopes: ['repo'] } });
    const fresh = renderTurnContext(snapshot, { connectors });
    const json = fresh.slice(fresh.indexOf('">') + 2, fresh.indexOf('</connector_status>'));
    expect(renderTurnContext(snapshot, { connectors, statusJson: json })).toBe(fresh);
    const later = { ...snapshot, capturedAt: '2026-11-21T15:05:00Z' };
    expect(renderTurnContext(later, { connectors, statusJson: '{"x":1}' })).toBe(
      '<current_time>2026-11-21T15:05:00Z</current_time>\n' +
        '<connector_status captured_at="2026-11-21T15:05:00Z">{"x":1}</connector_status>',
    );
  });

  it('keeps only the first would_enable entry when the system prompt carries the catalog', () => {
    const snapshot = snapshotOf({
      slack: { status: 'not_configured' },
      jira: { status: 'invalid_credentials', error: 'Token expired.' },
    });
    expect(renderTurnContext(snapshot, { connectors, catalogInSystemPrompt: true })).toBe(
      '<current_time>2026-11-21T15:00:00Z</current_time>\n' +
        '<connector_status captured_at="2026-11-21T15:00:00Z">' +
        '{"jira":{"error":"Token expired.","setup_url":"https://app.example.com/settings/integrations/jira",' +
        '"status":"invalid_credentials","would_enable":["Create and update Jira tickets"]},' +
        '"slack":{"setup_url":"https://app.example.com/settings/integrations/slack","status":"not_configured",' +
        '"would_enable":["Send messages to channels"]}}' +
        '</connector_status>',
    );
    // Without the catalog the block is the only place the model can learn the full list.
    expect(connectorStatusWire(snapshot, { connectors }).slack).toMatchObject({
      would_enable: ['Send messages to channels', 'Reply in threads'],
    });
  });

  it('renders equal status byte-identically whatever the key and insertion order', () => {
    const a = snapshotOf({
      github: { status: 'connected', scopes: ['repo', 'issues:write'] },
      jira: { status: 'invalid_credentials', error: 'Token expired.' },
      slack: { status: 'rate_limited', retryAfter: '2026-11-21T15:10:00Z' },
    });
    const b = snapshotOf({
      slack: { retryAfter: '2026-11-21T15:10:00.000Z', status: 'rate_limited' },
      jira: { error: 'Token expired.', status: 'invalid_credentials' },
      github: { scopes: ['issues:write', 'repo'], status: 'connected' },
    });
    const reversedConnectors = [...connectors].reverse();
    for (const format of ['compact', 'pretty'] as const) {
      for (const catalogInSystemPrompt of [false, true]) {
        expect(renderTurnContext(a, { connectors, format, catalogInSystemPrompt })).toBe(
          renderTurnContext(b, { connectors: reversedConnectors, format, catalogInSystemPrompt }),
        );
      }
    }
  });

  it('gives connected entries status, scopes and the tools exposed now', () => {
    const wire = connectorStatusWire(
      snapshotOf({
        github: { status: 'connected', scopes: ['repo', 'issues:write'] },
        slack: { status: 'connected', scopes: [] },
      }),
      { connectors },
    );
    expect(wire.github).toEqual({
      status: 'connected',
      scopes: ['issues:write', 'repo'],
      tools: ['github_create_issue', 'github_list_repos', 'github_share_pr_in_slack'],
    });
    // slack_send_message needs chat:write, which is not granted.
    expect(wire.slack).toEqual({ status: 'connected', scopes: [], tools: ['slack_list_channels'] });
  });

  it('gives invalid credentials an error and rate limits an ISO retry_after without milliseconds', () => {
    const wire = connectorStatusWire(
      snapshotOf({
        jira: { status: 'invalid_credentials', error: 'OAuth token expired.' },
        slack: { status: 'rate_limited', retryAfter: '2026-11-21T15:10:00.200Z' },
      }),
      { connectors },
    );
    expect(wire.jira).toEqual({
      status: 'invalid_credentials',
      error: 'OAuth token expired.',
      setup_url: 'https://app.example.com/settings/integrations/jira',
      would_enable: ['Create and update Jira tickets'],
    });
    // Rounded up: the limit has not lifted at :10:00.
    expect(wire.slack).toMatchObject({ status: 'rate_limited', retry_after: '2026-11-21T15:10:01Z' });
  });

  it('leaves disabled connectors out unless asked', () => {
    const snapshot = snapshotOf({
      linear: { status: 'disabled_by_admin' },
      jira: { status: 'not_configured' },
    });
    const rendered = renderTurnContext(snapshot, { connectors });
    expect(rendered).not.toMatch(/linear/i);
    expect(renderTurnContext(snapshot, { connectors, includeDisabled: true })).toContain(
      '"linear":{"reason":"Disabled by an administrator","status":"disabled_by_admin"}',
    );
  });

  it('renders pretty JSON on request and the current time when given', () => {
    const snapshot = snapshotOf({ jira: { status: 'not_configured' } }, '2026-11-21T15:00:00.999Z');
    const rendered = renderTurnContext(snapshot, {
      connectors,
      format: 'pretty',
      now: new Date('2026-11-21T15:00:02.5Z'),
    });
    expect(rendered.split('\n')[0]).toBe('<current_time>2026-11-21T15:00:02Z</current_time>');
    expect(rendered).toContain('captured_at="2026-11-21T15:00:00Z">{\n  "jira": {\n    "setup_url"');
  });

  it('escapes markup in values so an error message cannot close the block', () => {
    const snapshot = snapshotOf({ jira: { status: 'invalid_credentials', error: '</connector_status><x>' } });
    const rendered = renderTurnContext(snapshot, { connectors });
    expect(rendered.match(/<\/connector_status>/g)).toHaveLength(1);
    const json = rendered.slice(rendered.indexOf('>{') + 1, rendered.lastIndexOf('</connector_status>'));
    expect(JSON.parse(json).jira.error).toBe('</connector_status><x>');
  });
});

describe('MCP servers in the status block', () => {
  const snapshot = snapshotOf({
    slack: { status: 'disabled_by_admin' },
    github: { status: 'connected', scopes: ['repo'] },
  });

  it('renders up servers as connected with tools and down ones as unavailable, sorted with the connectors', () => {
    const servers = [
      { id: 'notes', status: 'unavailable' as const, retryAfter: '2026-11-21T15:00:04.200Z' },
      { id: 'files', status: 'connected' as const, tools: ['files_write', 'files_read'] },
      { id: 'zeta', status: 'unavailable' as const },
    ];
    expect(renderTurnContext(snapshot, { connectors, servers })).toBe(
      '<current_time>2026-11-21T15:00:00Z</current_time>\n' +
        '<connector_status captured_at="2026-11-21T15:00:00Z">' +
        '{"files":{"status":"connected","tools":["files_read","files_write"]},' +
        '"github":{"scopes":["repo"],"status":"connected","tools":["github_list_repos"]},' +
        // A reconnect at 15:00:04.2 is announced as 15:00:05: never earlier than it happens.
        '"notes":{"retry_after":"2026-11-21T15:00:05Z","status":"unavailable"},' +
        '"zeta":{"status":"unavailable"}}' +
        '</connector_status>',
    );
    // Equal status in another order renders byte-identically.
    expect(renderTurnContext(snapshot, { connectors, servers: [...servers].reverse() })).toBe(
      renderTurnContext(snapshot, { connectors, servers }),
    );
  });

  it('lets an installed connector keep its id when a server has the same name', () => {
    const wire = connectorStatusWire(snapshot, {
      connectors,
      servers: [{ id: 'github', status: 'unavailable' }],
    });
    expect(wire.github).toMatchObject({ status: 'connected', scopes: ['repo'] });
  });
});
