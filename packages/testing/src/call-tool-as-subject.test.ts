import { defineTool, type ToolContext } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callConnectorTool } from './call-connector-tool.js';
import { callToolAsSubject } from './call-tool-as-subject.js';
import { createFixtureConnector } from './fixture-connector.js';
import { snapshotFor } from './snapshot-for.js';

const seen: ToolContext[] = [];
const connector = createFixtureConnector({
  id: 'notes',
  tools: [
    defineTool({
      name: 'notes_post',
      description: 'Posts a note and shares it to the team chat.',
      input: z.object({ text: z.string().describe('Text of the note') }),
      effect: 'write',
      requiredScopes: ['notes:write'],
      requires: ['chat'],
      execute: async (input, context) => {
        seen.push(context);
        return success({ posted: input.text });
      },
    }),
  ],
});
const tool = connector.tools[0]!;
const credentials = { token: 'notes-token-123456' };

describe('snapshotFor', () => {
  it('grants every declared scope by default and connects the connectors tools require', () => {
    const snapshot = snapshotFor(connector, 'connected');
    expect(snapshot.connectors.notes).toMatchObject({ status: 'connected', scopes: ['notes:write'] });
    expect(snapshot.connectors.chat).toMatchObject({ status: 'connected' });
  });

  it('sets retryAfter for rate_limited and an error for invalid_credentials', () => {
    expect(snapshotFor(connector, 'rate_limited').connectors.notes?.retryAfter).toBe(
      '2026-01-01T00:01:00.000Z',
    );
    expect(snapshotFor(connector, 'invalid_credentials').connectors.notes?.error).toEqual(expect.any(String));
  });
});

describe('callToolAsSubject', () => {
  it('runs the tool with the subject, its credentials and granted scopes when available', async () => {
    seen.length = 0;
    const envelope = await callToolAsSubject(
      tool,
      { text: 'hi' },
      { snapshot: snapshotFor(connector, 'connected'), credentials },
    );
    expect(envelope).toEqual({ ok: true, data: { posted: 'hi' }, meta: { tool: 'notes_post' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ subject: 'test-subject', credentials, scopes: ['notes:write'] });
  });

  it('returns the gate envelope and never runs the tool when unavailable', async () => {
    seen.length = 0;
    const envelope = await callToolAsSubject(
      tool,
      { text: 'hi' },
      {
        snapshot: snapshotFor(connector, 'not_configured'),
        credentials,
        setupUrl: connector.setupUrl,
      },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'connector_not_configured',
      setup_url: connector.setupUrl,
    });
    expect(seen).toEqual([]);
  });
});

describe('callConnectorTool', () => {
  it('runs the named tool as a connected subject with the given credentials', async () => {
    seen.length = 0;
    const envelope = await callConnectorTool(connector, 'notes_post', { text: 'hi' }, { credentials });
    expect(envelope).toMatchObject({ ok: true, data: { posted: 'hi' } });
    expect(seen[0]).toMatchObject({ credentials, scopes: ['notes:write'] });
  });

  it('grants only the given scopes, so a missing one is refused with the setup URL', async () => {
    const envelope = await callConnectorTool(
      connector,
      'notes_post',
      { text: 'hi' },
      { credentials, scopes: [] },
    );
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'permission_denied',
      missing_scopes: ['notes:write'],
      setup_url: 'https://notes.test/connect',
    });
  });

  it('throws unknown_tool for a name the connector does not have', () => {
    expect(() => callConnectorTool(connector, 'notes_delete', {}, { credentials })).toThrow(
      expect.objectContaining({ code: 'unknown_tool' }),
    );
  });
});
