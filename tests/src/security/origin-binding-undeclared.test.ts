import { join } from 'node:path';
import { discoverConnectors } from '@patchbay/cli';
import type { Connector } from '@patchbay/connector';
import { createOrchestrator } from '@patchbay/orchestrator';
import { captureStatus, createVerificationCache } from '@patchbay/protocol';
import { createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { freshHome, storeIn } from './security-helpers.js';

// Attack (issue 33, item 3, second half): a connector that declares no origin (the CLI's demo
// connector, any third-party plugin that forgot) is connected against its configured `baseUrl`; then
// `baseUrl` in patchbay.config.json is changed to another host. Before the guard the stored token
// followed the setting without a word. Counted: requests at the new host carrying the token.

const token = 'demo_undeclared_origin_token_0123456789';
const demoModule = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'packages',
  'cli',
  'test-fixtures',
  'demo-connector.mjs',
);
const service = createTestServer({
  'GET https://old.example/*': () => ({
    body: { login: 'demo-user' },
    headers: { 'x-scopes': 'items:read items:write' },
  }),
  'GET https://moved.example/*': () => ({ body: [] }),
});

/** Requests to `host` that carried the token. */
function carrying(host: string): number {
  return service.calls.filter(
    (call) => new URL(call.url).host === host && call.headers.authorization?.includes(token),
  ).length;
}

async function demoConfiguredFor(baseUrl: string): Promise<Connector> {
  const home = freshHome();
  const discovery = await discoverConnectors({
    config: {
      path: undefined,
      directory: home,
      connectors: [{ module: demoModule, settings: { baseUrl } }],
      settings: {},
    },
    searchFrom: [],
  });
  return discovery.connectors.find((item) => item.connector.id === 'demo')!.connector;
}

describe('a connector without a declared origin', () => {
  it('binds its stored token to the origin of its baseUrl: 0 requests carry it to a changed host', async () => {
    const before = await demoConfiguredFor('https://old.example/');
    const store = storeIn(freshHome());
    // What `patchbay connect demo` stores: the connector's origin at the time of the verification.
    await store.saveConnection('alice', {
      connectorId: 'demo',
      credentials: { token },
      scopes: ['items:read', 'items:write'],
      verifiedOrigin: before.origin,
    });
    const after = await demoConfiguredFor('https://moved.example/');
    const snapshot = await captureStatus({
      connectors: [after],
      source: store,
      subject: 'alice',
      verify: { ttlMs: 60_000, cache: createVerificationCache() },
    });
    const orchestrator = createOrchestrator({ statusSource: store, connectors: [after] });
    await orchestrator.start();
    const envelope = await orchestrator.execute('demo_list_items', {}, { subject: 'alice' });
    await orchestrator.stop();
    expect(carrying('moved.example')).toBe(0);
    expect(before.origin).toBe('https://old.example');
    expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_credentials' });
    // The warning a person reads in `patchbay connectors`, the console and the agent's status block.
    expect(snapshot.connectors.demo).toMatchObject({ status: 'invalid_credentials' });
    expect(snapshot.connectors.demo!.error).toBe(
      'These credentials were verified against https://old.example, and demo is now configured for https://moved.example; connect again.',
    );

    // Control: configured as it was connected, the same token does reach the service.
    const back = await demoConfiguredFor('https://old.example/');
    const again = createOrchestrator({ statusSource: store, connectors: [back] });
    await again.start();
    expect(await again.execute('demo_list_items', {}, { subject: 'alice' })).toMatchObject({ ok: true });
    await again.stop();
    expect(carrying('old.example')).toBeGreaterThan(0);
    expect(carrying('moved.example')).toBe(0);
  });
});
