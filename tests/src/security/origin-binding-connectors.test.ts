import type { Connector, ConnectorFactory } from '@patchbay/connector';
import { createOrchestrator } from '@patchbay/orchestrator';
import { captureStatus, createVerificationCache } from '@patchbay/protocol';
import { canaryCredentials, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { freshHome, storeIn, workspaceConnectorFactories } from './security-helpers.js';

// The origin-binding attack for every connector Patchbay ships: credentials verified against one
// origin, the connector then configured for https://moved.example. Counted: requests that reach it.

let moved = 0;
createTestServer({
  'https://moved.example/*': () => {
    moved += 1;
    return { body: {} };
  },
});

// Read from connectors/*, not listed by hand: a ninth connector is attacked too.
const factories: Record<string, ConnectorFactory> = await workspaceConnectorFactories();

it('attacks every connector package of the workspace', () => {
  expect(Object.keys(factories).length).toBeGreaterThanOrEqual(8);
  expect(Object.keys(factories)).toContain('github');
});

describe.each(Object.keys(factories))('%s', (id) => {
  it('sends 0 requests to a changed origin through status checks and tool calls', async () => {
    moved = 0;
    const factory = factories[id]!;
    // Jira has no default site: it was verified against its configured one.
    const before: Connector = factory(id === 'jira' ? { baseUrl: 'https://acme.atlassian.net' } : {});
    const after: Connector = factory({ baseUrl: 'https://moved.example' });
    expect(before.origin).toBeDefined();
    expect(after.origin).toBe('https://moved.example');
    const store = storeIn(freshHome());
    await store.saveConnection('alice', {
      connectorId: id,
      credentials: canaryCredentials(before),
      scopes: before.auth.scopes.map((scope) => scope.name),
      verifiedOrigin: before.origin,
    });
    const snapshot = await captureStatus({
      connectors: [after],
      source: store,
      subject: 'alice',
      verify: { ttlMs: 60_000, cache: createVerificationCache() },
    });
    const orchestrator = createOrchestrator({ statusSource: store, connectors: [after] });
    await orchestrator.start();
    for (const tool of after.tools) await orchestrator.execute(tool.name, {}, { subject: 'alice' });
    await orchestrator.stop();
    expect(moved).toBe(0);
    expect(snapshot.connectors[id]).toMatchObject({ status: 'invalid_credentials' });
    expect(snapshot.connectors[id]!.error).toContain('now configured for https://moved.example');
  });
});
