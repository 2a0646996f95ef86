import type { ConnectorStatusEntry, StatusSnapshot } from '@patchbay/connector';
import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolAvailability } from './availability.js';

const now = new Date('2026-11-21T15:00:00Z');
const setupUrls = { github: 'https://app.test/connect/github', slack: 'https://app.test/connect/slack' };

const createIssue = {
  ...defineTool({
    name: 'github_create_issue',
    description: 'Opens an issue in a repository.',
    input: z.object({ title: z.string().describe('Issue title') }),
    effect: 'write',
    requiredScopes: ['repo', 'workflow'],
    execute: async () => success({ id: 1 }),
  }),
  connectorId: 'github',
};
const announce = defineTool({
  name: 'github_announce_release',
  description: 'Posts a release note of a repository to Slack.',
  input: z.object({ tag: z.string().describe('Release tag') }),
  effect: 'write',
  requires: ['slack'],
  execute: async () => success({ posted: true }),
});

function snapshot(
  connectors: Record<string, Partial<ConnectorStatusEntry> & Pick<ConnectorStatusEntry, 'status'>>,
): StatusSnapshot {
  return {
    subject: 'user-1',
    capturedAt: now.toISOString(),
    unknownConnectorIds: [],
    connectors: Object.fromEntries(
      Object.entries(connectors).map(([id, entry]) => [id, { id, scopes: [], ...entry }]),
    ),
  };
}

const connected = { status: 'connected' as const, scopes: ['repo', 'workflow'] };

describe('toolAvailability', () => {
  it('is available when connected with every scope granted', () => {
    expect(toolAvailability(createIssue, snapshot({ github: connected }), { now })).toEqual({
      available: true,
    });
  });

  it('not_configured → connector_not_configured with the setup URL', () => {
    const result = toolAvailability(createIssue, snapshot({ github: { status: 'not_configured' } }), {
      setupUrls,
      now,
    });
    expect(result).toMatchObject({
      available: false,
      reason: { kind: 'connector_status', connectorId: 'github', status: 'not_configured' },
      envelope: { error_type: 'connector_not_configured', connector: 'github', setup_url: setupUrls.github },
    });
  });

  it('invalid_credentials → invalid_credentials carrying the stored sentence', () => {
    const result = toolAvailability(
      createIssue,
      snapshot({ github: { status: 'invalid_credentials', error: 'The token was revoked.' } }),
      { setupUrls, now },
    );
    expect(result).toMatchObject({
      available: false,
      envelope: {
        error_type: 'invalid_credentials',
        setup_url: setupUrls.github,
        user_message: expect.stringContaining('The token was revoked.'),
      },
    });
  });

  it('rate_limited → rate_limited with retry_after_s computed from the snapshot', () => {
    const result = toolAvailability(
      createIssue,
      snapshot({ github: { status: 'rate_limited', retryAfter: '2026-11-21T15:01:30Z' } }),
      { now },
    );
    expect(result).toMatchObject({
      available: false,
      envelope: { error_type: 'rate_limited', retry_after_s: 90, retryable: true, connector: 'github' },
    });
  });

  it('rate_limited without a time → no retry_after_s', () => {
    const result = toolAvailability(createIssue, snapshot({ github: { status: 'rate_limited' } }), { now });
    expect(result.available).toBe(false);
    if (!result.available) expect(result.envelope).not.toHaveProperty('retry_after_s');
  });

  it('disabled_by_admin → disabled_by_admin that names no connector', () => {
    const result = toolAvailability(createIssue, snapshot({ github: { status: 'disabled_by_admin' } }), {
      setupUrls,
      now,
    });
    expect(result).toMatchObject({ available: false, envelope: { error_type: 'disabled_by_admin' } });
    if (!result.available) {
      expect(result.envelope).not.toHaveProperty('connector');
      expect(result.envelope).not.toHaveProperty('setup_url');
      expect(JSON.stringify(result.envelope)).not.toMatch(/github/i);
    }
  });

  it('an unknown connector → tool_unavailable', () => {
    const result = toolAvailability(createIssue, snapshot({ slack: { status: 'connected' } }), { now });
    expect(result).toMatchObject({
      available: false,
      reason: { kind: 'unknown_connector', connectorId: 'github' },
      envelope: { error_type: 'tool_unavailable' },
    });
  });

  it('missing scopes → permission_denied listing them', () => {
    const result = toolAvailability(
      createIssue,
      snapshot({ github: { status: 'connected', scopes: ['repo'] } }),
      {
        setupUrls,
        now,
      },
    );
    expect(result).toMatchObject({
      available: false,
      reason: { kind: 'missing_scopes', connectorId: 'github', scopes: ['workflow'] },
      envelope: {
        error_type: 'permission_denied',
        missing_scopes: ['workflow'],
        setup_url: setupUrls.github,
      },
    });
  });

  it('gates a tool without a connector (a function, an MCP tool) on its `requires` only', () => {
    expect(announce.connectorId).toBeUndefined();
    expect(toolAvailability(announce, snapshot({ slack: { status: 'connected' } }), { now })).toEqual({
      available: true,
    });
    expect(
      toolAvailability(announce, snapshot({ slack: { status: 'not_configured' } }), { now }),
    ).toMatchObject({
      available: false,
      reason: { kind: 'requires_connector', connectorId: 'slack' },
    });
  });

  it('a `requires` connector that is not connected → its own envelope, naming both', () => {
    const result = toolAvailability(
      announce,
      snapshot({ github: connected, slack: { status: 'not_configured' } }),
      { setupUrls, now },
    );
    expect(result).toMatchObject({
      available: false,
      reason: { kind: 'requires_connector', connectorId: 'slack' },
      envelope: {
        error_type: 'connector_not_configured',
        connector: 'slack',
        setup_url: setupUrls.slack,
        user_message: expect.stringMatching(/^github_announce_release also needs the slack connector\./),
      },
    });
  });

  it('a `requires` connector absent from the snapshot → connector_not_configured', () => {
    const result = toolAvailability(announce, snapshot({ github: connected }), { setupUrls, now });
    expect(result).toMatchObject({
      envelope: { error_type: 'connector_not_configured', connector: 'slack' },
    });
  });

  it('a `requires` connector that is rate limited → rate_limited for it', () => {
    const result = toolAvailability(
      announce,
      snapshot({ github: connected, slack: { status: 'rate_limited', retryAfter: '2026-11-21T15:00:10Z' } }),
      { now },
    );
    expect(result).toMatchObject({
      envelope: { error_type: 'rate_limited', connector: 'slack', retry_after_s: 10 },
    });
  });

  it('a `requires` connector disabled by an admin is not named', () => {
    const result = toolAvailability(
      announce,
      snapshot({ github: connected, slack: { status: 'disabled_by_admin' } }),
      {
        setupUrls,
        now,
      },
    );
    expect(result).toMatchObject({ available: false, envelope: { error_type: 'disabled_by_admin' } });
    if (!result.available) expect(JSON.stringify(result.envelope)).not.toMatch(/slack/i);
  });

  it('is available when the `requires` connector is connected', () => {
    expect(
      toolAvailability(announce, snapshot({ github: connected, slack: { status: 'connected' } }), { now }),
    ).toEqual({ available: true });
  });
});

describe('toolAvailability with an unavailable entry (MCP servers only)', () => {
  it('answers a retryable tool_unavailable, not disabled_by_admin', () => {
    const result = toolAvailability(announce, snapshot({ slack: { status: 'unavailable' } }), { now });
    expect(result).toMatchObject({
      available: false,
      envelope: { ok: false, error_type: 'tool_unavailable', retryable: true },
    });
  });
});
