import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpGateway } from './mcp-gateway.js';

describe('gateway settled()', () => {
  it('resolves only after every call in flight has its answer sent, then at once when none runs', async () => {
    // A tool held open until the test lets it go: two calls of it are in flight together.
    const waiting: (() => void)[] = [];
    const statusSource = createInMemoryStatusSource();
    const orchestrator = createOrchestrator({ statusSource, connectors: [] });
    orchestrator.register(
      fromFunction({
        name: 'held',
        description: 'Answers when the test releases it.',
        input: z.object({ n: z.number() }),
        effect: 'read',
        execute: ({ n }) => new Promise<string>((resolve) => waiting.push(() => resolve(`done ${n}`))),
      }),
    );
    await orchestrator.start();
    const gateway = createMcpGateway({
      orchestrator,
      connectors: [],
      statusSource,
      subject: 'user-1',
      refreshIntervalMs: 0,
    });
    const host = new Client({ name: 'settled-host', version: '1.0.0' });
    const [hostTransport, gatewayTransport] = InMemoryTransport.createLinkedPair();
    await gateway.connect(gatewayTransport);
    await host.connect(hostTransport);
    try {
      const answers: string[] = [];
      const calls = [1, 2].map((n) =>
        host.callTool({ name: 'held', arguments: { n } }).then((result) => {
          answers.push(JSON.stringify(result.structuredContent));
        }),
      );
      await expect.poll(() => waiting.length).toBe(2);
      let settled = false;
      const settling = gateway.settled().then(() => {
        settled = true;
      });
      waiting[0]?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled).toBe(false);
      waiting[1]?.();
      await settling;
      // Both answers were on the transport when settled() resolved: the host has read them.
      await Promise.all(calls);
      expect(answers).toHaveLength(2);
      expect(answers.join()).toContain('done 1');
      expect(answers.join()).toContain('done 2');
      // Nothing running: it resolves without waiting for a call.
      await gateway.settled();
    } finally {
      await host.close();
      await gateway.close();
      await orchestrator.stop();
    }
  });
});
