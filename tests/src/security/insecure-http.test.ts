import type { Connector, ConnectorFactory } from '@patchbay/connector';
import { connectorFactory as discord } from '@patchbay/connector-discord';
import { connectorFactory as email } from '@patchbay/connector-email';
import { connectorFactory as github } from '@patchbay/connector-github';
import { connectorFactory as jira } from '@patchbay/connector-jira';
import { connectorFactory as linear } from '@patchbay/connector-linear';
import { connectorFactory as notion } from '@patchbay/connector-notion';
import { connectorFactory as slack } from '@patchbay/connector-slack';
import { connectorFactory as sms } from '@patchbay/connector-sms';
import { canaryCredentials, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';

// Attack: a baseUrl of plain http to a host on the network (a config edit, a proxy someone suggested)
// puts every credential on the wire in clear text. Before the guard any http:// host was accepted.

let requests = 0;
createTestServer({
  'http://evil.example/*': () => {
    requests += 1;
    return { body: {} };
  },
});

const factories: Record<string, ConnectorFactory> = {
  discord,
  email,
  github,
  jira,
  linear,
  notion,
  slack,
  sms,
};

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
