import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type McpGatewayHttpServer, serveMcpGatewayHttp } from '@patchbay/mcp';
import { createOrchestrator, fromFunction } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Attack: a web page the user visits posts to http://127.0.0.1:PORT/mcp (a simple CORS request needs
// no preflight) and drives the gateway, which acts as the user with their stored credentials. Before
// the guard `initialize` with `Origin: http://evil.example` was answered 200. For hosts that can send
// a header, a bearer token shuts out every other local process as well.

const executions: string[] = [];
const servers: McpGatewayHttpServer[] = [];
const clients: Client[] = [];

afterEach(async () => {
  executions.length = 0;
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(extra: { token?: string; allowedOrigins?: string[] } = {}) {
  const statusSource = createInMemoryStatusSource();
  const orchestrator = createOrchestrator({ statusSource });
  orchestrator.register(
    fromFunction({
      name: 'vault_delete_everything',
      description: 'Deletes every document of the user.',
      input: z.object({ confirm: z.boolean().describe('Must be true') }),
      effect: 'write',
      execute: () => {
        executions.push('delete');
        return { deleted: 'all' };
      },
    }),
  );
  await orchestrator.start();
  const served = await serveMcpGatewayHttp({
    gateway: { orchestrator, connectors: [], statusSource, subject: 'alice' },
    ...extra,
  });
  servers.push(served);
  return served;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
};
const callDelete = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'vault_delete_everything', arguments: { confirm: true } },
};

/** One POST as a browser or a local process would send it. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  await response.text();
  return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined };
}

/** A session opened the way a legitimate host does, then a hostile request on it. */
async function openSession(url: string, headers: Record<string, string> = {}) {
  const opened = await post(url, initialize, headers);
  expect(opened.status).toBe(200);
  await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { ...headers, 'mcp-session-id': opened.session! },
  );
  return opened.session!;
}

describe('HTTP gateway: Origin', () => {
  it.each(['http://evil.example', 'null', 'http://127.0.0.1.evil.example', 'https://localhost.evil.example'])(
    'refuses initialize from Origin %s with 403: 0 sessions, 0 executions',
    async (origin) => {
      const served = await serve();
      const status = (await post(served.url, initialize, { origin })).status;
      expect(served.sessionCount()).toBe(0);
      expect(status).toBe(403);
      expect(executions).toHaveLength(0);
    },
  );

  it('refuses a tool call from a foreign Origin on an open session: 0 executions', async () => {
    const served = await serve();
    const session = await openSession(served.url);
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(served.url, callDelete, { origin: 'http://evil.example', 'mcp-session-id': session }),
      ),
    );
    expect(executions).toHaveLength(0);
    expect(attempts.map((attempt) => attempt.status)).toEqual([403, 403, 403, 403, 403]);
  });

  it('control: the loopback origin of the served port, and a configured one, are answered', async () => {
    const served = await serve();
    expect((await post(served.url, initialize, { origin: `http://localhost:${served.port}` })).status).toBe(
      200,
    );
    const configured = await serve({ allowedOrigins: ['https://app.example'] });
    expect((await post(configured.url, initialize, { origin: 'https://app.example' })).status).toBe(200);
    expect(
      (await post(configured.url, initialize, { origin: `http://localhost:${configured.port}` })).status,
    ).toBe(403);
  });
});

describe('HTTP gateway: bearer token', () => {
  const token = 'mcp-token-0123456789abcdef';

  it.each([
    ['no Authorization', {}],
    ['a wrong token', { authorization: 'Bearer mcp-token-0123456789abcdeX' }],
    ['the token without the scheme', { authorization: token }],
    ['a prefix of the token', { authorization: 'Bearer mcp-token-0123' }],
  ])('refuses initialize with %s: 401, 0 sessions', async (_what, headers) => {
    const served = await serve({ token });
    const status = (await post(served.url, initialize, headers)).status;
    expect(served.sessionCount()).toBe(0);
    expect(status).toBe(401);
  });

  it('refuses a tool call with a wrong token on a session opened with the right one: 0 executions', async () => {
    const served = await serve({ token });
    const session = await openSession(served.url, { authorization: `Bearer ${token}` });
    const attempt = await post(served.url, callDelete, {
      authorization: 'Bearer wrong',
      'mcp-session-id': session,
    });
    expect(executions).toHaveLength(0);
    expect(attempt.status).toBe(401);
  });

  it('control: a host sending the token runs the tool exactly once', async () => {
    const served = await serve({ token });
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    await client.callTool({ name: 'vault_delete_everything', arguments: { confirm: true } });
    expect(executions).toEqual(['delete']);
  });
});
