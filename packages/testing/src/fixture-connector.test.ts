import { connectorDefinitionSchema, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callConnectorTool } from './call-connector-tool.js';
import { createFixtureConnector } from './fixture-connector.js';

describe('createFixtureConnector', () => {
  it('fills every field a connector needs from the id and the tools', async () => {
    const connector = createFixtureConnector({
      id: 'tracker',
      tools: [{ name: 'tracker_list_issues', description: 'Lists the open issues of a project.' }],
    });
    expect(connectorDefinitionSchema.safeParse(connector).success).toBe(true);
    expect(connector).toMatchObject({
      specificationVersion: 'v1',
      id: 'tracker',
      name: 'Tracker',
      description: 'Tracker, a stand-in service for tests.',
      capabilities: ['Lists the open issues of a project.'],
      wouldEnable: ['Use Tracker from chat'],
      setupUrl: 'https://tracker.test/connect',
      auth: { kind: 'bearer', scopes: [], fields: [{ name: 'token', secret: true }] },
    });
    expect(connector.tools[0]).toMatchObject({ connectorId: 'tracker', effect: 'read', requiredScopes: [] });
    expect(await connector.verify({ token: 't' })).toEqual({ valid: true, scopes: [] });
    const result = await callConnectorTool(
      connector,
      'tracker_list_issues',
      {},
      { credentials: { token: 't' } },
    );
    expect(result).toMatchObject({ ok: true, data: {} });
  });

  it('declares the scopes given and those the tools require, and verify grants them all', async () => {
    const connector = createFixtureConnector({
      id: 'tracker',
      scopes: ['read', { name: 'admin', description: 'Administer projects' }],
      tools: [
        { name: 'tracker_create_issue', effect: 'write', requiredScopes: ['write'], requires: ['chat'] },
        defineTool({
          name: 'tracker_close_issue',
          description: 'Closes an issue.',
          input: z.object({ key: z.string().describe('Issue key') }),
          effect: 'destructive',
          requiredScopes: ['write', 'admin'],
          execute: async (input) => success({ closed: input.key }),
        }),
      ],
    });
    expect(connector.auth.scopes).toEqual([
      { name: 'read', description: 'read access' },
      { name: 'admin', description: 'Administer projects' },
      { name: 'write', description: 'write access' },
    ]);
    expect(await connector.verify({ token: 't' })).toEqual({
      valid: true,
      scopes: ['read', 'admin', 'write'],
    });
    expect(connector.tools.map((tool) => [tool.name, tool.effect, tool.requires])).toEqual([
      ['tracker_create_issue', 'write', ['chat']],
      ['tracker_close_issue', 'destructive', []],
    ]);
    const closed = await callConnectorTool(
      connector,
      'tracker_close_issue',
      { key: 'WEB-7' },
      {
        credentials: { token: 't' },
      },
    );
    expect(closed).toMatchObject({ ok: true, data: { closed: 'WEB-7' } });
  });

  it('takes every field a test cares about, and still validates like any connector', () => {
    const connector = createFixtureConnector({
      id: 'sms',
      name: 'SMS',
      description: 'Text messages.',
      auth: {
        kind: 'basic',
        fields: [
          { name: 'account_sid', description: 'Account SID', secret: false },
          { name: 'auth_token', description: 'Auth token' },
        ],
      },
      capabilities: ['send texts'],
      wouldEnable: ['Text the on-call engineer'],
      setupUrl: 'https://app.test/settings/sms',
      docsUrl: 'https://docs.test/sms',
      verify: async () => ({ valid: false, reason: 'invalid_credentials', message: 'Rejected.' }),
      tools: [{ name: 'sms_send', effect: 'destructive' }],
    });
    expect(connector).toMatchObject({
      name: 'SMS',
      auth: {
        kind: 'basic',
        fields: [
          { name: 'account_sid', secret: false },
          { name: 'auth_token', secret: true },
        ],
      },
      setupUrl: 'https://app.test/settings/sms',
      docsUrl: 'https://docs.test/sms',
    });
    expect(() => createFixtureConnector({ id: 'sms', tools: [{ name: 'chat_post' }] })).toThrow(
      /must start with "sms_"/,
    );
  });
});
