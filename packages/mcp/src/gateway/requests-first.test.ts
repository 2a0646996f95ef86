import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  JSONRPCErrorResponseSchema,
  type JSONRPCMessage,
  JSONRPCResultResponseSchema,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMcpGateway, type McpGateway } from './mcp-gateway.js';
import { readRequestsFirst } from './requests-first.js';

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

describe('the gateway reads requests as requests first', () => {
  it('checks no request of a host against the response shapes', async () => {
    const gateway = await echoGateway();
    const [hostTransport, gatewayTransport] = InMemoryTransport.createLinkedPair();
    await gateway.connect(gatewayTransport);
    const host = new Client({ name: 'host', version: '1.0.0' });
    await host.connect(hostTransport);
    try {
      // A request tried as a response is a failed zod parse, which keeps the whole request alive past
      // the next young-generation collection (see requests-first.ts): count every such attempt.
      const requestsTriedAsResponses: unknown[] = [];
      for (const schema of [JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema]) {
        const safeParse = schema.safeParse.bind(schema);
        vi.spyOn(schema, 'safeParse').mockImplementation(((value: unknown, params?: never) => {
          if (typeof value === 'object' && value !== null && 'method' in value)
            requestsTriedAsResponses.push(value);
          return safeParse(value, params);
        }) as typeof schema.safeParse);
      }
      for (let index = 0; index < 10; index += 1) {
        const result = await host.callTool({ name: 'echo', arguments: { message: `m${index}` } });
        expect(result.structuredContent).toMatchObject({ ok: true, data: `Echo: m${index}` });
      }
      await host.listTools();
      await host.ping();
      expect(requestsTriedAsResponses).toEqual([]);
    } finally {
      await host.close();
      await gateway.close();
    }
  });

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

  it('is in place with this SDK, and leaves the SDK its own dispatch where it has no request reader', async () => {
    // If an SDK upgrade renames `Protocol._onrequest`, every request costs two failed parses again and
    // this says so.
    const server = new Server({ name: 's', version: '1.0.0' }, { capabilities: {} });
    const [, transport] = InMemoryTransport.createLinkedPair();
    await server.connect(transport);
    expect(readRequestsFirst(server as unknown as Protocol<never, never, never>, transport, undefined)).toBe(
      true,
    );
    await server.close();

    const [, bare] = InMemoryTransport.createLinkedPair();
    const dispatch = vi.fn();
    bare.onmessage = dispatch;
    expect(readRequestsFirst({} as Protocol<never, never, never>, bare, undefined)).toBe(false);
    expect(bare.onmessage).toBe(dispatch);
  });
});
