import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { StatusChange, StatusSource, WatchableStatusSource } from '@patchbay/connector/ports';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource, type InMemoryStatusSource } from '@patchbay/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAcmeConnector, secretToken } from '../../test/support.js';
import { createMcpGateway } from './mcp-gateway.js';

const subject = 'user-1';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/**
 * An in-memory status source that announces changes as a Postgres store does with LISTEN/NOTIFY:
 * `announce` stands for a write made by another process. Counts loads and listeners.
 */
function createWatchableSource(): WatchableStatusSource & {
  memory: InMemoryStatusSource;
  announce(change: StatusChange): void;
  loads: number;
  listeners: Set<(change: StatusChange) => void>;
} {
  const memory = createInMemoryStatusSource();
  const listeners = new Set<(change: StatusChange) => void>();
  const source = {
    memory,
    listeners,
    loads: 0,
    load(who: string) {
      source.loads += 1;
      return memory.load(who);
    },
    markRateLimited: memory.markRateLimited.bind(memory),
    markInvalidCredentials: memory.markInvalidCredentials.bind(memory),
    subscribe(listener: (change: StatusChange) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    announce(change: StatusChange) {
      for (const listener of listeners) listener(change);
    },
  };
  return source;
}

/** A host on a gateway serving Acme, with the poll off: only announcements can trigger a recheck. */
async function connectHost(statusSource: StatusSource) {
  const connectors = [createAcmeConnector()];
  const orchestrator = createOrchestrator({ statusSource, connectors });
  const gateway = createMcpGateway({ orchestrator, connectors, statusSource, subject, refreshIntervalMs: 0 });
  const client = new Client({ name: 'watch-test', version: '1.0.0' });
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged += 1;
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverTransport);
  await client.connect(clientTransport);
  cleanups.push(async () => {
    await client.close();
    await gateway.close();
  });
  return { client, gateway, listChanged: () => listChanged };
}

const connectAcme = (memory: InMemoryStatusSource) =>
  memory.connect(subject, 'acme', { credentials: { token: secretToken }, scopes: ['tickets:read'] });

describe('status watch', () => {
  it('rechecks at once when the status source announces a change, with no polling', async () => {
    const source = createWatchableSource();
    const host = await connectHost(source);
    expect((await host.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'refresh_connector_status',
    ]);
    connectAcme(source.memory);
    source.announce({ kind: 'connection', subject, connectorId: 'acme' });
    await vi.waitFor(() => expect(host.listChanged()).toBe(1));
    expect((await host.client.listTools()).tools.map((tool) => tool.name)).toContain('acme_get_ticket');
  });

  it('rechecks for a change that applies to everyone, and not for another subject', async () => {
    const source = createWatchableSource();
    const host = await connectHost(source);
    await host.client.listTools();
    const before = source.loads;
    source.announce({ kind: 'connection', subject: 'someone-else', connectorId: 'acme' });
    await host.gateway.recheck();
    // Only the explicit recheck loaded: the other subject's change started none.
    expect(source.loads - before).toBe(1);
    source.memory.disable('acme');
    connectAcme(source.memory);
    source.announce({ kind: 'policy' });
    await host.gateway.recheck();
    expect(source.loads - before).toBeGreaterThanOrEqual(2);
  });

  it('folds a burst of announcements into a few checks, not one each', async () => {
    const source = createWatchableSource();
    const host = await connectHost(source);
    await host.client.listTools();
    const before = source.loads;
    for (let index = 0; index < 50; index += 1) source.announce({ kind: 'rate_limit', subject });
    await host.gateway.recheck();
    // One check running, one queued behind it that every later announcement shares, plus this call's.
    expect(source.loads - before).toBeLessThanOrEqual(3);
  });

  it('looks once when the subscription is in place, for a change made while it was being set up', async () => {
    const source = createWatchableSource();
    let nowListening = () => {};
    // As a Postgres store does: LISTEN takes a round trip, and a change committed before it is announced to nobody.
    const listening = Object.assign(source, {
      listening: () =>
        new Promise<void>((resolve) => {
          nowListening = resolve;
        }),
    });
    const host = await connectHost(listening);
    await host.client.listTools();
    connectAcme(source.memory);
    expect(host.listChanged()).toBe(0);
    nowListening();
    await vi.waitFor(() => expect(host.listChanged()).toBe(1));
    expect((await host.client.listTools()).tools.map((tool) => tool.name)).toContain('acme_get_ticket');
  });

  it('stops listening when the gateway closes', async () => {
    const source = createWatchableSource();
    const host = await connectHost(source);
    expect(source.listeners.size).toBe(1);
    await host.gateway.close();
    expect(source.listeners.size).toBe(0);
  });

  it('a source that cannot announce is still polled: the poll is the fallback', async () => {
    const memory = createInMemoryStatusSource();
    const connectors = [createAcmeConnector()];
    const orchestrator = createOrchestrator({ statusSource: memory, connectors });
    const gateway = createMcpGateway({
      orchestrator,
      connectors,
      statusSource: memory,
      subject,
      refreshIntervalMs: 20,
    });
    const client = new Client({ name: 'poll-test', version: '1.0.0' });
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      listChanged += 1;
    });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverTransport);
    await client.connect(clientTransport);
    cleanups.push(async () => {
      await client.close();
      await gateway.close();
    });
    await client.listTools();
    connectAcme(memory);
    await vi.waitFor(() => expect(listChanged).toBe(1));
  });
});
