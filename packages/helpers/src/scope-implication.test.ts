import type { ConnectorDefinition } from '@patchbay/connector';
import { defineConnector, defineTool } from '@patchbay/connector';
import { PatchbayError, success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolAvailability } from './availability.js';
import { expandScopes } from './scopes.js';

const readMembers = defineTool({
  name: 'org_list_members',
  description: 'Lists the members of an organisation.',
  input: z.object({}),
  effect: 'read',
  requiredScopes: ['read:org'],
  execute: async () => success([]),
});

function definition(scopes: ConnectorDefinition['auth']['scopes']): ConnectorDefinition {
  return {
    id: 'org',
    name: 'Org',
    description: 'An organisation directory.',
    auth: { kind: 'bearer', scopes },
    capabilities: ['list members'],
    wouldEnable: ['See who is in the organisation'],
    setupUrl: 'https://org.test/connect',
    tools: [readMembers],
    verify: async () => ({ valid: true, scopes: [] }),
  };
}

const nested = definition([
  { name: 'admin:org', description: 'Administer the organisation', implies: ['write:org'] },
  { name: 'write:org', description: 'Change the organisation', implies: ['read:org'] },
  { name: 'read:org', description: 'Read the organisation' },
]);

describe('scope implication', () => {
  it('closes implication transitively and stamps it on every tool', () => {
    const [tool] = defineConnector(nested).tools;
    expect(tool?.impliedScopes).toEqual({
      'admin:org': ['read:org', 'write:org'],
      'write:org': ['read:org'],
    });
    expect(expandScopes(['admin:org'], tool?.impliedScopes)).toEqual(['admin:org', 'read:org', 'write:org']);
    expect(expandScopes(['read:org'], undefined)).toEqual(['read:org']);
  });

  it('lets a granted parent scope satisfy a required child scope', () => {
    const [tool] = defineConnector(nested).tools;
    const snapshot = (scopes: string[]) => ({
      subject: 's',
      capturedAt: '2026-01-01T00:00:00.000Z',
      connectors: { org: { id: 'org', status: 'connected' as const, scopes } },
      unknownConnectorIds: [],
    });
    expect(toolAvailability(tool!, snapshot(['admin:org'])).available).toBe(true);
    expect(toolAvailability(tool!, snapshot([])).available).toBe(false);
  });

  it('rejects an implied scope the connector does not declare', () => {
    const bad = definition([
      { name: 'read:org', description: 'Read the organisation' },
      { name: 'admin:org', description: 'Administer', implies: ['write:orgs'] },
    ]);
    expect(() => defineConnector(bad)).toThrow(PatchbayError);
    expect(() => defineConnector(bad)).toThrow('auth.scopes.1.implies: "write:orgs" is not declared');
  });
});
