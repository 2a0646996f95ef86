import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '../sdk.js';
import { StreamableHTTPServerTransport } from '../sdk.js';
import { createMemoryServer, type MemoryServerOptions } from './memory-server.js';

/** Settings of {@link serveMemoryHttp}. */
export interface MemoryHttpOptions extends MemoryServerOptions {
  /** Interface to listen on; default `127.0.0.1`. The server has no authentication: keep it on loopback. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Path of the MCP endpoint; default `/mcp`. */
  path?: string;
}

/** A running streamable HTTP memory server. */
export interface MemoryHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3200/mcp`. */
  url: string;
  port: number;
  /** Open MCP sessions. */
  sessionCount(): number;
  /** Closes every session and the listener. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

function reject(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serves the memory server over streamable HTTP: one MCP session (and one server, bound to the
 * configured subject) per client. Requests whose `Host` is not this listener's are refused, so a
 * web page cannot reach a loopback server through DNS rebinding.
 */
export async function serveMemoryHttp(options: MemoryHttpOptions): Promise<MemoryHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, Session>();
  let allowedHosts: string[] = [];

  async function openSession(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const server = createMemoryServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
  }

  const listener = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      reject(response, 404, 'Not found.');
      return;
    }
    // Checked here for every request, not only by the SDK transport: a page served from another
    // name that resolves to loopback (DNS rebinding) must not reach the memory at all.
    if (!allowedHosts.includes(String(request.headers.host ?? '').toLowerCase())) {
      reject(response, 403, 'Forbidden host.');
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    const work = session
      ? session.transport.handleRequest(request, response)
      : request.method === 'POST' && sessionId === undefined
        ? openSession(request, response)
        : Promise.resolve(reject(response, 404, 'Unknown or expired session.'));
    work.catch(() => {
      if (!response.headersSent) reject(response, 500, 'The memory server failed.');
      else response.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const port = (listener.address() as AddressInfo).port;
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  allowedHosts = [`${hostPart}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];

  return {
    url: `http://${hostPart}:${port}${path}`,
    port,
    sessionCount: () => sessions.size,
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map(({ server }) => server.close().catch(() => undefined)));
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
