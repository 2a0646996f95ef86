import type { Connector, ConnectorFactory } from '@patchbay/connector';
import { canaryCredentials, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { workspaceConnectorFactories } from './security-helpers.js';

// Attack: a baseUrl of plain http to a host on the network (a config edit, a proxy someone suggested)
// puts every credential on the wire in clear text. Before the guard any http:// host was accepted.

let requests = 0;
createTestServer({
  'http://evil.example/*': () => {
    requests += 1;
    return { body: {} };
  },
});

// Read from connectors/*, not listed by hand: a ninth connector is attacked too.
const factories: Record<string, ConnectorFactory> = await workspaceConnectorFactories();

it('attacks every connector package of the workspace', () => {
  expect(Object.keys(factories).length).toBeGreaterThanOrEqual(8);
  expect(Object.keys(factories)).toContain('github');
});

describe('plain http only to loopback', () => {
  it.each(Object.keys(factories))('%s refuses http://evil.example when created: 0 requests', async (id) => {
    requests = 0;
    const factory = factories[id]!;
    let created: Connector | undefined;
    let refused: unknown;
    try {
      created = factory({ baseUrl: 'http://evil.example' });
    } catch (error) {
      refused = error;
    }
    // Had it been created, the first verify would have put the credentials on the wire.
    if (created) await created.verify(canaryCredentials(created));
    expect(requests).toBe(0);
    expect(created).toBeUndefined();
    // Jira had its own https rule already; every other connector goes through createHttpClient.
    expect(refused).toMatchObject({ code: id === 'jira' ? 'invalid_settings' : 'insecure_base_url' });
    if (id !== 'jira') expect((refused as Error).message).toMatch(/clear text.*allowInsecureHttp/s);
  });

  it.each(Object.keys(factories).filter((id) => id !== 'jira'))(
    '%s accepts http to a loopback host, and to any host with allowInsecureHttp',
    (id) => {
      const factory = factories[id] as ConnectorFactory<{ baseUrl?: string; allowInsecureHttp?: boolean }>;
      expect(factory({ baseUrl: 'http://127.0.0.1:8080' }).id).toBe(id);
      expect(factory({ baseUrl: 'http://evil.example', allowInsecureHttp: true }).id).toBe(id);
    },
  );
});
