import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createControllableServer } from '../../test-servers/controllable-server.mjs';
import type { McpHttpServerConfig } from './config.js';
import { callContext } from './controllable-fixture.js';
import { createMcpAgent, type McpAgent } from './mcp-agent.js';

/** The controllable server over streamable HTTP on 127.0.0.1, one McpServer per session. */
async function startHttpServer(port = 0): Promise<{
  url: string;
  port: number;
  headersSeen: IncomingMessage['headers'][];
  close: () => Promise<void>;
}> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const headersSeen: IncomingMessage['headers'][] = [];
  const server: Server = createServer(async (request, response) => {
    headersSeen.push(request.headers);
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId !== undefined) {
        response.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      // In-process: a "crash" must not end the test runner.
      await createControllableServer({ onCrash: () => undefined }).connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/mcp`,
    port: actualPort,
    headersSeen,
    close: async () => {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function httpConfig(url: string, overrides: Partial<McpHttpServerConfig> = {}): McpHttpServerConfig {
  return {
    name: 'remote',
    transport: 'streamable-http',
    url,
    headers: {},
    timeout: 5000,
    autoStart: true,
    trust: false,
    ...overrides,
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('createMcpAgent over streamable HTTP', () => {
  it('discovers and calls tools, sending the configured headers', async () => {
    const server = await startHttpServer();
    cleanups.push(server.close);
    const agent: McpAgent = createMcpAgent(
      httpConfig(server.url, { headers: { 'X-Test-Token': 'token-from-config' } }),
    );
    cleanups.push(() => agent.shutdown());
    await agent.initialize();
    expect(agent.manifest().tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['echo', 'hang', 'add_tool']),
    );
    expect(await agent.execute('echo', { text: 'over http' }, callContext())).toMatchObject({
      ok: true,
      data: 'over http',
    });
    expect(server.headersSeen.some((headers) => headers['x-test-token'] === 'token-from-config')).toBe(true);
    expect(agent.pid).toBeUndefined();
    expect(await agent.health()).toMatchObject({ status: 'up' });
  });

  it('picks up tools/list_changed over the SSE stream', async () => {
    const server = await startHttpServer();
    cleanups.push(server.close);
    const agent = createMcpAgent(httpConfig(server.url));
    cleanups.push(() => agent.shutdown());
    await agent.initialize();
    expect(await agent.execute('add_tool', { name: 'remote_extra' }, callContext())).toMatchObject({
      ok: true,
    });
    await vi.waitFor(
      () => expect(agent.manifest().tools.map((tool) => tool.name)).toContain('remote_extra'),
      { timeout: 10_000 },
    );
  });

  it('notices a vanished server by ping, answers tool_unavailable, and reconnects when it is back', async () => {
    const first = await startHttpServer();
    const agent = createMcpAgent(httpConfig(first.url), {
      healthCheckIntervalMs: 100,
      healthCheckTimeoutMs: 500,
      reconnect: { initialDelayMs: 100, maxDelayMs: 300 },
    });
    cleanups.push(() => agent.shutdown());
    await agent.initialize();
    await first.close();
    // Reading `status` does not probe: only the agent's own periodic pings can take it down here.
    await vi.waitFor(() => expect(agent.status).toBe('down'), { timeout: 10_000, interval: 50 });
    expect(await agent.health()).toMatchObject({ status: 'down' });
    expect(await agent.execute('echo', { text: 'x' }, callContext())).toMatchObject({
      ok: false,
      error_type: 'tool_unavailable',
    });

    const second = await startHttpServer(first.port);
    cleanups.push(second.close);
    await vi.waitFor(async () => expect((await agent.health()).status).toBe('up'), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await agent.execute('echo', { text: 'again' }, callContext())).toMatchObject({
      ok: true,
      data: 'again',
    });
  });
});
