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
      // The first answer is at the host, and every promise chain the gateway started on it has run
      // (the transport is in memory: one macrotask turn drains them): settled() still waits.
      await expect.poll(() => answers.length).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
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

describe('a call the host cancels', () => {
  it('stops the tool and ends `cancelled`, not `timeout`, and the host gets no answer to it', async () => {
    // A tool that runs until its signal fires, then reports whether it saw that signal.
    let toolStarted = false;
    let toolSawAbort = false;
    const statusSource = createInMemoryStatusSource();
    const orchestrator = createOrchestrator({ statusSource, connectors: [] });
    orchestrator.register(
      fromFunction({
        name: 'slow_report',
        description: 'Builds a report slowly.',
        input: z.object({}),
        effect: 'read',
        timeoutMs: 60_000,
        execute: (_input, context) =>
          new Promise<string>((resolve) => {
            toolStarted = true;
            context.signal.addEventListener('abort', () => {
              toolSawAbort = true;
              resolve('stopped');
            });
          }),
      }),
    );
    await orchestrator.start();
    const outcomes: string[] = [];
    const gateway = createMcpGateway({
      // The gateway's own record of each call's outcome, as `patchbay mcp` writes it to the audit log.
      orchestrator: {
        async execute(name, args, options) {
          const envelope = await orchestrator.execute(name, args, options);
          outcomes.push(envelope.ok ? 'ok' : envelope.error_type);
          return envelope;
        },
        listTools: () => orchestrator.listTools(),
        listAgents: () => orchestrator.listAgents(),
        getTool: (name) => orchestrator.getTool(name),
      },
      connectors: [],
      statusSource,
      subject: 'user-1',
      refreshIntervalMs: 0,
    });
    const host = new Client({ name: 'cancelling-host', version: '1.0.0' });
    const [hostTransport, gatewayTransport] = InMemoryTransport.createLinkedPair();
    await gateway.connect(gatewayTransport);
    await host.connect(hostTransport);
    try {
      const controller = new AbortController();
      const call = host.callTool({ name: 'slow_report', arguments: {} }, undefined, {
        signal: controller.signal,
      });
      // Cancel once the gate has handed the call to the tool: a cancel mid-run, not before the start.
      await expect.poll(() => toolStarted, { timeout: 10_000 }).toBe(true);
      controller.abort('the person closed the chat');
      await expect(call).rejects.toThrow();
      await gateway.settled();
      expect(outcomes).toEqual(['cancelled']);
      expect(toolSawAbort).toBe(true);
    } finally {
      await host.close();
      await gateway.close();
      await orchestrator.stop();
    }
  });
});
