import { defineConnector, defineTool } from '@patchbay/connector';
import type { StoredConnection } from '@patchbay/connector/ports';
import { success } from '@patchbay/envelope';
import type { ConnectorOrigins } from '@patchbay/helpers';
import * as helpersModule from '@patchbay/helpers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestStatusSource } from '../test/support.js';
import { createOrchestrator } from './orchestrator.js';

// The gate binds stored connections to the origins their connectors are configured for (a token
// verified against one host is never sent to another). It used to pass every registered connector's
// origin to the binding on every call, so a call's cost grew with the registry (issue 32 item 3).
// These tests count what the binding is handed per call, and that a mismatch still refuses.

vi.mock('@patchbay/helpers', async (importOriginal) => {
  const actual = await importOriginal<typeof helpersModule>();
  return {
    ...actual,
    bindConnectionsToOrigins: vi.fn(actual.bindConnectionsToOrigins),
  };
});

const subject = 'user-1';
const runs = { count: 0 };

afterEach(() => {
  runs.count = 0;
  vi.mocked(helpersModule.bindConnectionsToOrigins).mockClear();
});

/** `count` connectors `svc0…`, each configured for its own origin, with one read tool. */
function connectors(count: number, requires: string[] = []) {
  return Array.from({ length: count }, (_, index) =>
    defineConnector({
      id: `svc${index}`,
      name: `Service ${index}`,
      description: 'A generated connector.',
      auth: { kind: 'bearer' },
      capabilities: ['lookup'],
      wouldEnable: ['Lookups'],
      setupUrl: `https://svc${index}.example/connect`,
      origin: `https://svc${index}.example`,
      defaultOrigin: `https://svc${index}.example`,
      tools: [
        defineTool({
          name: `svc${index}_lookup`,
          description: 'Looks something up.',
          input: z.object({ query: z.string().describe('What to look up') }),
          effect: 'read',
          ...(index === 0 ? { requires } : {}),
          execute: async () => {
            runs.count += 1;
            return success({ found: true });
          },
        }),
      ],
      verify: async () => ({ valid: true, scopes: [] }),
    }),
  );
}

function connection(connectorId: string, verifiedOrigin: string): StoredConnection {
  return { connectorId, credentials: { token: `token-${connectorId}` }, scopes: [], verifiedOrigin };
}

/** Every origin list the binding was handed in this test, by connector id. */
function boundIds(): string[][] {
  return vi
    .mocked(helpersModule.bindConnectionsToOrigins)
    .mock.calls.map(([, origins]) => [...(origins as Iterable<ConnectorOrigins>)].map((item) => item.id));
}

describe('origin binding per call', () => {
  it("binds only the call's own connectors, whatever the size of the registry", async () => {
    const all = connectors(500, ['svc7']);
    const statusSource = createTestStatusSource();
    for (const connector of all) {
      statusSource.connect(subject, connection(connector.id, connector.origin!));
    }
    const orchestrator = createOrchestrator({ statusSource, connectors: all });
    await orchestrator.start();
    expect(await orchestrator.execute('svc0_lookup', { query: 'x' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(await orchestrator.execute('svc42_lookup', { query: 'x' }, { subject })).toMatchObject({
      ok: true,
    });
    // Its connector and what it `requires`, nothing else: with every origin it would be 500 a call.
    expect(boundIds().map((ids) => ids.sort())).toEqual([['svc0', 'svc7'], ['svc42']]);
    await orchestrator.stop();
  });

  it('still refuses a call whose own or required connector was verified against another origin, and runs nothing', async () => {
    const all = connectors(20, ['svc7']);
    const statusSource = createTestStatusSource();
    for (const connector of all) {
      statusSource.connect(subject, connection(connector.id, connector.origin!));
    }
    // svc3's token was verified against a host it is no longer configured for; svc7 (required by
    // svc0_lookup) likewise.
    statusSource.connect(subject, connection('svc3', 'https://elsewhere.example'));
    statusSource.connect(subject, connection('svc7', 'https://elsewhere.example'));
    const orchestrator = createOrchestrator({ statusSource, connectors: all });
    await orchestrator.start();
    expect(await orchestrator.execute('svc3_lookup', { query: 'x' }, { subject })).toMatchObject({
      ok: false,
      error_type: 'invalid_credentials',
    });
    expect(await orchestrator.execute('svc0_lookup', { query: 'x' }, { subject })).toMatchObject({
      ok: false,
    });
    expect(runs.count).toBe(0);
    // The others are untouched by svc3's and svc7's mismatch.
    expect(await orchestrator.execute('svc4_lookup', { query: 'x' }, { subject })).toMatchObject({
      ok: true,
    });
    expect(runs.count).toBe(1);
    await orchestrator.stop();
  });

  it('finds no origin for a connector id that is a name on Object.prototype', async () => {
    const statusSource = createTestStatusSource();
    const orchestrator = createOrchestrator({ statusSource, connectors: connectors(1) });
    orchestrator.register(
      // A function agent whose tool requires a "connector" named like a prototype property.
      (await import('./function-agent.js')).fromFunction({
        name: 'odd_lookup',
        description: 'Looks something up.',
        input: z.object({ query: z.string().describe('What to look up') }),
        effect: 'read',
        requires: ['constructor'],
        execute: async () => ({ found: true }),
      }),
    );
    await orchestrator.start();
    const result = await orchestrator.execute('odd_lookup', { query: 'x' }, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'connector_not_configured' });
    expect(boundIds()).toEqual([[]]);
    await orchestrator.stop();
  });
});
