import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  JSONRPCErrorResponseSchema,
  type JSONRPCMessage,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { callContext, childServerTimeoutMs } from '../client/controllable-fixture.js';
import { createMcpAgent } from '../client/mcp-agent.js';
import { type AnyProtocol, readByShape } from '../client/read-by-shape.js';
import { createMcpGateway, type McpGateway } from './mcp-gateway.js';

const silent = pino({ level: 'silent' });

async function echoGateway(): Promise<McpGateway> {
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource, connectors: [] });
  orchestrator.register(
    fromFunction({
      name: 'echo',
      description: 'Echoes the message.',
      input: z.object({ message: z.string() }),
      effect: 'read',
      execute: async ({ message }) => `Echo: ${message}`,
    }),
  );
  await orchestrator.start();
  return createMcpGateway({ orchestrator, connectors: [], statusSource, subject: 'user-1', logger: silent });
}

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Every message this process tries against a JSON-RPC shape other than its own: a request or a
 * notification tried as a response, a notification tried as a request. Each is a failed zod parse,
 * which keeps the message alive past the next young-generation collection (see read-by-shape.ts).
 */
function countMisreadMessages(): unknown[] {
  const misread: unknown[] = [];
  const watch = (
    schema:
      | typeof JSONRPCResultResponseSchema
      | typeof JSONRPCErrorResponseSchema
      | typeof JSONRPCRequestSchema,
    wrongFor: (message: object) => boolean,
  ) => {
    const safeParse = schema.safeParse.bind(schema);
    vi.spyOn(schema, 'safeParse').mockImplementation(((value: unknown, params?: never) => {
      if (typeof value === 'object' && value !== null && wrongFor(value)) misread.push(value);
      return safeParse(value, params);
    }) as typeof schema.safeParse);
  };
  watch(JSONRPCResultResponseSchema, (message) => 'method' in message);
  watch(JSONRPCErrorResponseSchema, (message) => 'method' in message);
  watch(JSONRPCRequestSchema, (message) => 'method' in message && !('id' in message));
  return misread;
}

describe('messages read by their shape', () => {
  it('tries no request or notification of a host against another shape', async () => {
    const gateway = await echoGateway();
    const [hostTransport, gatewayTransport] = InMemoryTransport.createLinkedPair();
    await gateway.connect(gatewayTransport);
    const host = new Client({ name: 'host', version: '1.0.0' });
    await host.connect(hostTransport);
    try {
      const misread = countMisreadMessages();
      for (let index = 0; index < 10; index += 1) {
        const result = await host.callTool({ name: 'echo', arguments: { message: `m${index}` } });
        expect(result.structuredContent).toMatchObject({ ok: true, data: `Echo: m${index}` });
      }
      await host.listTools();
      await host.ping();
      await host.notification({ method: 'notifications/cancelled', params: { requestId: 999 } });
      expect(misread).toEqual([]);
    } finally {
      await host.close();
      await gateway.close();
    }
  });

  it(
    'reads an upstream server’s progress notifications as notifications',
    async () => {
      const agent = createMcpAgent({
        name: 'fidelity',
        transport: 'stdio',
        command: process.execPath,
        args: [fileURLToPath(new URL('../../test-servers/fidelity-server.mjs', import.meta.url))],
        env: {},
        timeout: childServerTimeoutMs,
        autoStart: true,
        trust: true,
      });
      try {
        await agent.initialize();
        const misread = countMisreadMessages();
        const progress: number[] = [];
        const envelope = await agent.execute(
          'count_up',
          {},
          {
            ...callContext(),
            onProgress: (report) => void progress.push(report.progress),
          },
        );
        expect(envelope).toMatchObject({ ok: true, data: 'counted' });
        expect(progress).toEqual([1, 2, 3]);
        expect(misread).toEqual([]);
      } finally {
        await agent.shutdown();
      }
    },
    childServerTimeoutMs,
  );

  it('answers every other message as the SDK would: notifications, responses, and what no shape fits', async () => {
    const gateway = await echoGateway();
    const [host, gatewayTransport] = InMemoryTransport.createLinkedPair();
    const received: JSONRPCMessage[] = [];
    host.onmessage = (message) => {
      received.push(message);
      // The gateway's own ping to the host: the host answers it, which the gateway reads as a response.
      if ('method' in message && message.method === 'ping' && 'id' in message)
        void host.send({ jsonrpc: '2.0', id: message.id, result: {} });
    };
    await host.start();
    await gateway.connect(gatewayTransport);
    try {
      await host.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'raw-host', version: '1.0.0' },
        },
      });
      await host.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // A response to the gateway's request reaches the request: the SDK's dispatch still reads it.
      await expect(gateway.server.ping()).resolves.toEqual({});
      // Strict shapes: a message with a method, an id and a result is neither a request nor a response.
      await host.send({ jsonrpc: '2.0', id: 2, method: 'ping', result: {} } as unknown as JSONRPCMessage);
      await host.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      await vi.waitFor(() =>
        expect(received.some((message) => 'id' in message && message.id === 3)).toBe(true),
      );
      expect(received).toContainEqual(expect.objectContaining({ id: 1, result: expect.anything() }));
      expect(received).toContainEqual({
        jsonrpc: '2.0',
        id: 2,
        error: expect.objectContaining({ code: ErrorCode.InvalidRequest }),
      });
      expect(received).toContainEqual({ jsonrpc: '2.0', id: 3, result: {} });
    } finally {
      await gateway.close();
    }
  });

  it('is in place with this SDK, and leaves the SDK its own dispatch where it has no readers', async () => {
    // If an SDK upgrade renames `Protocol._onrequest` or `_onnotification`, every request costs two
    // failed parses again and every notification three, and this says so.
    for (const protocol of [
      new Server({ name: 's', version: '1.0.0' }, { capabilities: {} }),
      new Client({ name: 'c', version: '1.0.0' }),
    ]) {
      const [, transport] = InMemoryTransport.createLinkedPair();
      transport.onmessage = () => undefined;
      expect(readByShape(protocol, transport, undefined)).toBe(true);
    }

    const [, bare] = InMemoryTransport.createLinkedPair();
    const dispatch = vi.fn();
    bare.onmessage = dispatch;
    expect(readByShape({} as AnyProtocol, bare, undefined)).toBe(false);
    expect(bare.onmessage).toBe(dispatch);
  });
});
