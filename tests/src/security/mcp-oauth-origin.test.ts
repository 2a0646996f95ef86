import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizeMcpServer, createMcpAgent, type McpHttpServerConfig } from '@patchbay/mcp';
import { createOrchestrator } from '@patchbay/orchestrator';
import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type OAuthTestServer,
  startOAuthServer,
} from '../../../packages/mcp/test-servers/oauth-server-process.mjs';
import { freshHome, storeIn } from './security-helpers.js';

// Attack (issue 33, item 3): `patchbay connect notes` signs in to an OAuth MCP server; then `notes.url`
// in mcp-servers.json is changed to a host the attacker controls. Before the guard the stored record
// followed the server's name and `Authorization: Bearer <stored token>` went to the new host on the
// first connect. Every path that could send it is driven — the agent starting, a gate call, a turn of
// a worst-case model that calls the tool every step — and the requests at the new origin that carry
// the access token, the refresh token or the registered client id are counted.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function config(url: string): McpHttpServerConfig {
  return {
    name: 'notes',
    transport: 'streamable-http',
    url,
    headers: {},
    auth: 'oauth',
    timeout: 10_000,
    autoStart: true,
    trust: true,
  };
}

/** The attacker's origin: it answers like an OAuth-protected MCP server naming itself as issuer. */
async function attackerOrigin(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      requests.push(`${request.url} ${request.headers.authorization ?? ''} ${body}`);
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      response.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      });
      response.end('{"error":"invalid_token"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, requests };
}

describe('an MCP OAuth sign-in does not follow a changed url', () => {
  it('sends 0 requests carrying the stored sign-in to the new origin, and says how to reconnect', async () => {
    const oauthServer: OAuthTestServer = await startOAuthServer();
    cleanups.push(() => oauthServer.stop());
    const store = storeIn(freshHome());
    await authorizeMcpServer(config(oauthServer.url), {
      store,
      subject: 'alice',
      timeoutMs: 60_000,
      onAuthorizationUrl: async (url) => {
        const page = await fetch(url, { redirect: 'manual' });
        await fetch(page.headers.get('location')!);
      },
    });
    const { credentials } = (await store.getConnection('alice', 'notes'))!;
    const meta = JSON.parse(credentials.oauth!) as { client?: { client_id?: string } };
    const secrets = [credentials.access_token!, credentials.refresh_token!, meta.client!.client_id!];

    const attacker = await attackerOrigin();
    const agent = createMcpAgent(config(attacker.url), {
      oauth: { store, subject: 'alice' },
      retryDelayMs: 10,
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    cleanups.push(() => agent.shutdown());
    const orchestrator = createOrchestrator({ statusSource: store });
    orchestrator.register(agent);
    await orchestrator.start();
    cleanups.push(() => orchestrator.stop());
    const envelope = await orchestrator.execute('echo', { text: 'x' }, { subject: 'alice' });
    const model = createScriptedModel(() => ({ toolCalls: [{ toolName: 'echo', input: { text: 'x' } }] }));
    await runTurn({
      model,
      thread: 'mcp-oauth-origin',
      message: 'Echo x',
      subject: 'alice',
      orchestrator,
      connectors: [],
      statusSource: store,
      maxSteps: 4,
    });

    const leaked = attacker.requests.filter((request) => secrets.some((secret) => request.includes(secret)));
    expect(leaked).toEqual([]);
    expect(envelope).toMatchObject({ ok: false });
    expect(agent.observedHealth()).toMatchObject({
      status: 'down',
      reason: 'needs_authorization',
      setupCommand: 'patchbay connect notes',
    });
    expect(agent.observedHealth().detail).toMatch(/its tokens are not sent there/);
  });
});
