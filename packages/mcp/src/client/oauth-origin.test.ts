import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type OAuthTestServer, startOAuthServer } from '../../test-servers/oauth-server-process.mjs';
import { authorizeMcpServer } from './authorize.js';
import type { McpHttpServerConfig } from './config.js';
import { callContext } from './controllable-fixture.js';
import { createMcpAgent, type McpAgent } from './mcp-agent.js';
import { oauthOriginMismatch } from './oauth-provider.js';

// Attack (issue 33, item 3): after a sign-in to an OAuth MCP server, its `url` in mcp-servers.json is
// changed to another origin (a config edit, a poisoned project config). Before the guard the stored
// record followed the name: the bearer token went to the new host, and the authorization server that
// host names could be handed the refresh token. Counted: requests at the new origin carrying any of it.

const secretKey = Buffer.alloc(32, 5).toString('hex');
const slow = 120_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(): Promise<OAuthTestServer> {
  const server = await startOAuthServer();
  cleanups.push(() => server.stop());
  return server;
}

function freshStore(): PatchbayStore {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-oauth-origin-'));
  const store = openStore({ home, secretKey, env: {} });
  cleanups.push(() => {
    store.close();
    rmSync(home, { recursive: true, force: true });
  });
  return store;
}

function serverConfig(url: string, overrides: Partial<McpHttpServerConfig> = {}): McpHttpServerConfig {
  return {
    name: 'notes',
    transport: 'streamable-http',
    url,
    headers: {},
    auth: 'oauth',
    timeout: 10_000,
    autoStart: true,
    trust: true,
    ...overrides,
  };
}

function agentFor(config: McpHttpServerConfig, store: PatchbayStore): McpAgent {
  const agent = createMcpAgent(config, {
    oauth: { store, subject: 'ana' },
    retryDelayMs: 10,
    reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
  });
  cleanups.push(() => agent.shutdown());
  return agent;
}

async function signIn(config: McpHttpServerConfig, store: PatchbayStore): Promise<void> {
  await authorizeMcpServer(config, {
    store,
    subject: 'ana',
    timeoutMs: 60_000,
    onAuthorizationUrl: async (url) => {
      const page = await fetch(url, { redirect: 'manual' });
      await fetch(page.headers.get('location')!);
    },
  });
}

/**
 * The new origin: it asks for OAuth like a real server and names itself as the authorization
 * server, so a client that followed it would send the refresh token to its token endpoint too.
 */
async function startOtherOrigin(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      requests.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''} ${body}`);
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(value));
      };
      if (request.url?.startsWith('/.well-known/oauth-protected-resource')) {
        json(200, { resource: `${base}/mcp`, authorization_servers: [base] });
      } else if (request.url?.startsWith('/.well-known/oauth-authorization-server')) {
        json(200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
      } else {
        json(
          401,
          { error: 'invalid_token' },
          {
            'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          },
        );
      }
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

/** Requests that carried any part of the stored sign-in. */
function carrying(requests: string[], secrets: string[]): string[] {
  return requests.filter((request) => secrets.some((secret) => request.includes(secret)));
}

describe('a stored OAuth sign-in is bound to the origin it was made for', () => {
  it(
    'sends 0 requests carrying the tokens to a changed url, shows not_configured saying why, and keeps the record',
    async () => {
      const server = await startServer();
      const store = freshStore();
      const original = serverConfig(server.url);
      await signIn(original, store);
      const stored = (await store.getConnection('ana', 'notes'))!;
      const secrets = [stored.credentials.access_token!, stored.credentials.refresh_token!];
      const client = JSON.parse(stored.credentials.oauth!) as { client?: { client_id?: string } };
      if (client.client?.client_id) secrets.push(client.client.client_id);
      expect(stored.verifiedOrigin).toBe(new URL(server.url).origin);

      const other = await startOtherOrigin();
      // The same real server under another host name is another origin too: it would accept the token.
      const renamed = server.url.replace('127.0.0.1', 'localhost');
      for (const url of [other.url, renamed]) {
        for (const auth of ['oauth', 'auto'] as const) {
          const agent = agentFor(serverConfig(url, { auth }), store);
          await agent.initialize();
          const envelope = await agent.execute('echo', { text: 'x' }, callContext());
          expect(carrying(other.requests, secrets)).toEqual([]);
          expect(envelope.ok).toBe(false);
          expect(agent.observedHealth()).toMatchObject({
            status: 'down',
            reason: 'needs_authorization',
            setupCommand: 'patchbay connect notes',
          });
          if (auth === 'oauth') {
            expect(agent.observedHealth().detail).toBe(
              `The sign-in to "notes" was made for ${new URL(server.url).origin}, and "notes" is now configured for ${new URL(url).origin}; its tokens are not sent there. Run "patchbay connect notes" to sign in at the new address.`,
            );
          }
          await agent.shutdown();
        }
      }
      expect(carrying(other.requests, secrets)).toEqual([]);
      // Nothing reached the real server's token endpoint through the renamed address either.
      expect((await server.stats()).refresh_token).toBe(0);

      // Nothing was written over the record: the original url still works.
      const back = agentFor(original, store);
      await back.initialize();
      expect(back.status).toBe('up');
      expect(await back.execute('echo', { text: 'hello' }, callContext())).toMatchObject({ ok: true });
    },
    slow,
  );

  it(
    'signing in at the new address binds the new record there',
    async () => {
      const server = await startServer();
      // Another server process listens on another port: another origin.
      const moved = await startServer();
      const store = freshStore();
      await signIn(serverConfig(server.url), store);
      const movedConfig = serverConfig(moved.url);
      await signIn(movedConfig, store);
      expect((await store.getConnection('ana', 'notes'))!.verifiedOrigin).toBe(new URL(moved.url).origin);
      // The old record's client was not offered to the new authorization server: it registered anew.
      expect(await moved.stats()).toMatchObject({ registrations: 1, authorization_code: 1 });
      const agent = agentFor(movedConfig, store);
      await agent.initialize();
      expect(agent.status).toBe('up');
      // ...and the old address no longer gets it.
      const old = agentFor(serverConfig(server.url), store);
      await old.initialize();
      expect(old.observedHealth()).toMatchObject({ status: 'down', reason: 'needs_authorization' });
    },
    slow,
  );

  it(
    'a record stored before origins were recorded is not sent anywhere until the next sign-in',
    async () => {
      const server = await startServer();
      const store = freshStore();
      const config = serverConfig(server.url);
      await signIn(config, store);
      const stored = (await store.getConnection('ana', 'notes'))!;
      const { origin: _origin, ...meta } = JSON.parse(stored.credentials.oauth!) as Record<string, unknown>;
      await store.saveConnection('ana', {
        connectorId: 'notes',
        credentials: { ...stored.credentials, oauth: JSON.stringify(meta) },
        scopes: stored.scopes,
      });
      const agent = agentFor(config, store);
      await agent.initialize();
      expect(agent.observedHealth()).toMatchObject({ status: 'down', reason: 'needs_authorization' });
      expect(agent.observedHealth().detail).toMatch(/stored without the address it was made for/);
    },
    slow,
  );
});

describe('oauthOriginMismatch', () => {
  it('compares origins, not paths', () => {
    expect(oauthOriginMismatch('notes', 'https://a.example/mcp/v2', 'https://a.example')).toBeUndefined();
    expect(oauthOriginMismatch('notes', 'https://a.example:8443/mcp', 'https://a.example')).toMatch(
      /now configured for https:\/\/a\.example:8443/,
    );
    expect(oauthOriginMismatch('notes', 'http://a.example/mcp', 'https://a.example')).toMatch(/made for/);
  });
});
