import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { StatusSource } from '@patchbay/connector/ports';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { HttpResponse, http } from 'msw';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAcmeConnector, createAcmeServer, secretToken, serviceUrl } from '../../test/support.js';
import { isLoopbackHost } from './http-settings.js';
import { type McpGatewayHttpOptions, type McpGatewayHttpServer, serveMcpGatewayHttp } from './serve-http.js';

// msw serves the Acme API; requests to the loopback gateway itself pass through.
const acme = createAcmeServer();
beforeAll(() => acme.server.listen({ onUnhandledFrame: 'bypass' }));
afterEach(() => acme.reset());
afterAll(() => acme.server.close());

const servers: McpGatewayHttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startGateway(refreshIntervalMs = 0, extra: Partial<McpGatewayHttpOptions> = {}) {
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('alice', 'acme', {
    credentials: { token: secretToken },
    scopes: ['tickets:read', 'tickets:write'],
  });
  const connectors = [createAcmeConnector()];
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  const served = await serveMcpGatewayHttp({
    gateway: {
      orchestrator,
      connectors,
      statusSource,
      // A shared gateway: whom a request is for comes with the request.
      resolveSubject: (request) => String(request.requestInfo?.headers['x-patchbay-user'] ?? 'anonymous'),
      refreshIntervalMs,
    },
    ...extra,
  });
  servers.push(served);
  return Object.assign(served, { statusSource });
}

async function connectClient(url: string, user: string) {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { 'x-patchbay-user': user } },
    }),
  );
  clients.push(client);
  return client;
}

function rawRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method, headers: options.headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('serveMcpGatewayHttp', () => {
  it('serves each session its subject’s tools and runs calls over streamable HTTP', async () => {
    const served = await startGateway();
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const alice = await connectClient(served.url, 'alice');
    const bob = await connectClient(served.url, 'bob');
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toContain('acme_get_ticket');
    expect((await bob.listTools()).tools.map((tool) => tool.name)).toEqual(['refresh_connector_status']);
    expect(served.sessionCount()).toBe(2);

    const result = await alice.callTool({ name: 'acme_get_ticket', arguments: { id: 'T-1' } });
    expect(result.structuredContent).toMatchObject({ ok: true, data: { id: 'T-1', title: 'First' } });
    const refused = await bob.callTool({ name: 'acme_get_ticket', arguments: { id: 'T-1' } });
    expect(refused.structuredContent).toMatchObject({ error_type: 'connector_not_configured' });
    expect(acme.requests).toHaveLength(1);
  });

  it('delivers tools/list_changed to the session after a call comes back rate_limited', async () => {
    acme.server.use(
      http.get(
        `${serviceUrl}/tickets/:id`,
        () => new HttpResponse('{}', { status: 429, headers: { 'retry-after': '60' } }),
      ),
    );
    const served = await startGateway();
    const alice = await connectClient(served.url, 'alice');
    await alice.listTools();
    const changed = new Promise<void>((resolve) =>
      alice.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
    );
    const result = await alice.callTool({ name: 'acme_get_ticket', arguments: { id: 'T-1' } });
    expect(result.structuredContent).toMatchObject({ error_type: 'rate_limited' });
    await changed;
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toEqual(['refresh_connector_status']);
  });

  it('pushes tools/list_changed from the interval recheck on the session’s standalone stream', async () => {
    const served = await startGateway(50);
    const bob = await connectClient(served.url, 'bob');
    const changed = new Promise<void>((resolve) =>
      bob.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
    );
    expect((await bob.listTools()).tools.map((tool) => tool.name)).toEqual(['refresh_connector_status']);
    served.statusSource.connect('bob', 'acme', {
      credentials: { token: secretToken },
      scopes: ['tickets:read'],
    });
    await changed;
    expect((await bob.listTools()).tools.map((tool) => tool.name)).toEqual([
      'acme_get_ticket',
      'refresh_connector_status',
    ]);
  });

  it('refuses requests naming a non-loopback host (DNS rebinding)', async () => {
    const served = await startGateway();
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const evil = await rawRequest(served.url, {
      method: 'POST',
      headers: { ...headers, host: `attacker.example:${served.port}` },
      body: initialize,
    });
    expect(evil.status).toBe(403);
    const good = await rawRequest(served.url, { method: 'POST', headers, body: initialize });
    expect(good.status).toBe(200);
    expect(served.sessionCount()).toBe(1);
  });

  it('checks the Origin a browser sends: another site and the opaque "null" get 403 and no session', async () => {
    const served = await startGateway();
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const send = (origin: string) =>
      rawRequest(served.url, { method: 'POST', headers: { ...headers, origin }, body: initialize });
    // A page on another site, the same host on another port, and a sandboxed page or file:// page.
    for (const origin of ['http://evil.example', `http://127.0.0.1:${served.port + 1}`, 'null']) {
      expect((await send(origin)).status).toBe(403);
    }
    expect(served.sessionCount()).toBe(0);
    // This machine's page on the served port, however the browser spells its host.
    expect((await send(`http://LOCALHOST:${served.port}`)).status).toBe(200);
    expect((await send(`http://127.0.0.1:${served.port}`)).status).toBe(200);
    expect(served.sessionCount()).toBe(2);
  });

  it('answers unknown sessions, other paths and non-initialize first requests with errors', async () => {
    const served = await startGateway();
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(
      (
        await rawRequest(served.url, {
          method: 'POST',
          headers: { ...headers, 'mcp-session-id': 'nope' },
          body: list,
        })
      ).status,
    ).toBe(404);
    expect((await rawRequest(served.url, { method: 'POST', headers, body: list })).status).toBe(400);
    expect((await rawRequest(served.url, { method: 'POST', headers, body: '{not json' })).status).toBe(400);
    expect((await rawRequest(served.url.replace('/mcp', '/other'), { method: 'GET' })).status).toBe(404);
    expect(served.sessionCount()).toBe(0);
  });

  it('closes a session its host left without DELETE once nothing of it stays open for the idle timeout', async () => {
    const logged: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    const served = await startGateway(0, { sessionIdleTimeoutMs: 100, logger });
    // A host that stays: its notification stream is open, so it is never idle.
    const staying = await connectClient(served.url, 'alice');
    await staying.listTools();
    // A host that goes away: the client closes its streams but never sends DELETE.
    const leaving = new Client({ name: 'leaving', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    await leaving.connect(transport);
    await leaving.listTools();
    const abandoned = transport.sessionId!;
    expect(served.sessionCount()).toBe(2);
    await leaving.close();

    await vi.waitFor(() => expect(logged.join('')).toContain('idle session closed'), { timeout: 5_000 });
    expect(served.sessionCount()).toBe(1);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const late = await rawRequest(served.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': abandoned, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(late.status).toBe(404);
    // The one that stayed idled longer than the timeout between its last request and now, yet still works.
    expect((await staying.listTools()).tools.map((tool) => tool.name)).toContain('acme_get_ticket');
    expect(logged.filter((line) => line.includes('idle session closed'))).toHaveLength(1);
  });

  it('keeps request-header, configured and stored-credential secrets out of every log line', async () => {
    // Opaque values: no token shape catches them; only knowing them does.
    const apiKey = 'hdr-Opaque-7Qz19xKpLm';
    const bearer = 'brr-Opaque-3Vn82TqYs4';
    const environmentValue = 'env-Opaque-Zk28PqWm55';
    const storedToken = 'cred-Opaque-Lp47Rt02Xy';
    const logged: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void logged.push(line) });
    const stored = createInMemoryStatusSource();
    stored.connect('alice', 'acme', { credentials: { token: storedToken }, scopes: ['tickets:read'] });
    let databaseDown = false;
    // A status source whose driver error echoes the row it choked on and its connection settings.
    const statusSource: StatusSource = {
      load: async (subject) => {
        if (databaseDown) {
          throw new Error(`row {"token":"${storedToken}"} does not decode (password ${environmentValue})`);
        }
        return stored.load(subject);
      },
      markRateLimited: (...args) => stored.markRateLimited(...args),
      markInvalidCredentials: (...args) => stored.markInvalidCredentials(...args),
    };
    const connectors = [createAcmeConnector()];
    const orchestrator = createOrchestrator({ statusSource, connectors });
    await orchestrator.start();
    const served = await serveMcpGatewayHttp({
      logger,
      secrets: [environmentValue],
      gateway: {
        orchestrator,
        connectors,
        statusSource,
        logger,
        refreshIntervalMs: 0,
        // A shared gateway mapping API keys to users, whose lookup error names the key it did not know.
        resolveSubject: (request) => {
          const headers = request.requestInfo?.headers ?? {};
          const key = headers['x-api-key'] ?? String(headers.authorization ?? '').replace(/^Bearer /, '');
          if (key) throw new Error(`no user has the key ${key}`);
          return String(headers['x-patchbay-user']);
        },
      },
    });
    servers.push(served);

    const alice = await connectClient(served.url, 'alice');
    expect((await alice.listTools()).tools.length).toBeGreaterThan(0);
    databaseDown = true;
    const refreshed = await alice.callTool({ name: 'refresh_connector_status', arguments: {} });
    expect(JSON.stringify(refreshed)).toContain('internal_error');
    const strangers: Record<string, string>[] = [
      { 'x-api-key': apiKey },
      { authorization: `Bearer ${bearer}` },
    ];
    for (const headers of strangers) {
      const stranger = new Client({ name: 'stranger', version: '1.0.0' });
      await stranger.connect(
        new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers } }),
      );
      clients.push(stranger);
      await expect(stranger.listTools()).rejects.toThrow(/could not tell whom/);
    }

    const text = logged.join('');
    expect(text).toContain('status capture failed');
    expect(text.match(/could not resolve the subject of a request/g)).toHaveLength(2);
    expect(text).toContain('no user has the key [REDACTED]');
    for (const value of [apiKey, bearer, environmentValue, storedToken]) expect(text).not.toContain(value);
  });

  it('listens on an IPv6 loopback written as in a URL ([::1])', async () => {
    const served = await startGateway(0, { host: '[::1]' });
    expect(served.url).toMatch(/^http:\/\/\[::1\]:\d+\/mcp$/);
    const alice = await connectClient(served.url, 'alice');
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toContain('acme_get_ticket');
  });

  it('knows loopback hosts', () => {
    expect(['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '192.168.1.4', 'example.com'].some(isLoopbackHost)).toBe(false);
  });
});
