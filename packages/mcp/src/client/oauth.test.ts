import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type OAuthTestServer, startOAuthServer } from '../../test-servers/oauth-server-process.mjs';
import { authorizeMcpServer } from './authorize.js';
import type { McpHttpServerConfig } from './config.js';
import { callContext } from './controllable-fixture.js';
import { createMcpAgent, type McpAgent } from './mcp-agent.js';

// Real processes and real HTTP: the in-repo authorization server + protected MCP server as a child
// process (a test stand-in for a remote server behind OAuth), the real SQLite store, our client.

const secretKey = Buffer.alloc(32, 7).toString('hex');
const slow = 120_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(env: Record<string, string> = {}): Promise<OAuthTestServer> {
  const server = await startOAuthServer(env);
  cleanups.push(() => server.stop());
  return server;
}

function freshStore(): { store: PatchbayStore; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-oauth-'));
  const store = openStore({ home, secretKey, env: {} });
  cleanups.push(() => {
    store.close();
    rmSync(home, { recursive: true, force: true });
  });
  return { store, home };
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

/** A scripted browser: opens the authorization URL and follows the redirect to the loopback. */
async function browse(url: URL): Promise<{ status: number; text: string }> {
  const page = await fetch(url, { redirect: 'manual' });
  const location = page.headers.get('location');
  if (!location) return { status: page.status, text: await page.text() };
  const landing = await fetch(location);
  return { status: landing.status, text: await landing.text() };
}

function agentFor(config: McpHttpServerConfig, store: PatchbayStore, subject = 'ana'): McpAgent {
  const agent = createMcpAgent(config, {
    oauth: { store, subject },
    retryDelayMs: 10,
    reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
  });
  cleanups.push(() => agent.shutdown());
  return agent;
}

async function signIn(config: McpHttpServerConfig, store: PatchbayStore, subject = 'ana') {
  return authorizeMcpServer(config, {
    store,
    subject,
    timeoutMs: 60_000,
    onAuthorizationUrl: async (url) => {
      const landing = await browse(url);
      expect(landing.status).toBe(200);
    },
  });
}

describe('OAuth for remote MCP servers', () => {
  it(
    'signs in end to end (discovery, registration, PKCE, loopback) and the agent then calls tools',
    async () => {
      const server = await startServer();
      const { store } = freshStore();
      const config = serverConfig(server.url);
      let seenUrl: URL | undefined;
      const result = await authorizeMcpServer(config, {
        store,
        subject: 'ana',
        timeoutMs: 60_000,
        onAuthorizationUrl: async (url) => {
          seenUrl = url;
          await browse(url);
        },
      });
      expect(result).toMatchObject({
        status: 'authorized',
        tools: ['echo', 'echo_token'],
        scopes: ['tools'],
      });
      expect(seenUrl?.searchParams.get('code_challenge_method')).toBe('S256');
      expect(seenUrl?.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
      expect(seenUrl?.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(result.authorizationUrl).toBe(seenUrl?.href);
      expect(await server.stats()).toMatchObject({
        registrations: 1,
        authorizations: 1,
        authorization_code: 1,
      });
      // The pending verifier and state are gone once the tokens are in.
      const stored = await store.getConnection('ana', 'notes');
      expect(Object.keys(stored!.credentials).sort()).toEqual(['access_token', 'oauth', 'refresh_token']);

      const agent = agentFor(config, store);
      await agent.initialize();
      expect(agent.status).toBe('up');
      const envelope = await agent.execute('echo', { text: 'hello' }, callContext());
      expect(envelope).toMatchObject({ ok: true });
      expect(JSON.stringify(envelope)).toContain('hello');
      // Another subject has not signed in.
      const other = agentFor(config, store, 'bo');
      await other.initialize();
      expect(other.observedHealth()).toMatchObject({ status: 'down', reason: 'needs_authorization' });
    },
    slow,
  );

  it(
    'keeps tokens encrypted: the plaintext token is not in the SQLite file, and a server echoing it is redacted',
    async () => {
      const server = await startServer();
      const { store, home } = freshStore();
      const config = serverConfig(server.url);
      await signIn(config, store);
      const { credentials } = (await store.getConnection('ana', 'notes'))!;
      const accessToken = credentials.access_token!;
      const refreshToken = credentials.refresh_token!;
      expect(accessToken.length).toBeGreaterThan(20);
      const files = ['patchbay.db', 'patchbay.db-wal'].map((name) => join(home, name)).filter(existsSync);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const bytes = readFileSync(file);
        for (const secret of [accessToken, refreshToken]) {
          expect(bytes.includes(Buffer.from(secret))).toBe(false);
        }
      }
      const agent = agentFor(config, store);
      await agent.initialize();
      const envelope = await agent.execute('echo_token', {}, callContext());
      expect(envelope.ok).toBe(true);
      const text = JSON.stringify(envelope);
      expect(text).toContain('Your token is');
      expect(text).not.toContain(accessToken);
    },
    slow,
  );

  it(
    'refreshes an expired access token and stores the rotated tokens',
    async () => {
      const server = await startServer();
      const { store } = freshStore();
      const config = serverConfig(server.url);
      await signIn(config, store);
      const before = (await store.getConnection('ana', 'notes'))!.credentials;
      // The server lets the access token lapse (as its TTL would) without the test waiting for it.
      await server.expireAccessTokens();
      const agent = agentFor(config, store);
      await agent.initialize();
      expect(agent.status).toBe('up');
      expect((await server.stats()).refresh_token).toBeGreaterThanOrEqual(1);
      const after = (await store.getConnection('ana', 'notes'))!.credentials;
      expect(after.access_token).not.toBe(before.access_token);
      expect(after.refresh_token).not.toBe(before.refresh_token);
    },
    slow,
  );

  it(
    'a revoked authorization takes the server down as authorization_rejected, with the setup command',
    async () => {
      const server = await startServer();
      const { store } = freshStore();
      const config = serverConfig(server.url);
      await signIn(config, store);
      await server.revokeAll();
      const agent = agentFor(config, store);
      await agent.initialize();
      expect(agent.observedHealth()).toMatchObject({
        status: 'down',
        reason: 'authorization_rejected',
        setupCommand: 'patchbay connect notes',
      });
      const summary = (await store.listConnections('ana')).find((item) => item.connectorId === 'notes');
      expect(summary?.credentialError).toMatch(/refused the stored sign-in/);
      // Still rejected on the next attempt (another process, a restart): the store remembers.
      const again = agentFor(config, store);
      await again.initialize();
      expect(again.observedHealth()).toMatchObject({ reason: 'authorization_rejected' });
      // A new sign-in clears it.
      await signIn(config, store);
      const fresh = agentFor(config, store);
      await fresh.initialize();
      expect(fresh.status).toBe('up');
    },
    slow,
  );

  it(
    'a revocation while up: the next call answers invalid_credentials and the server goes down',
    async () => {
      const server = await startServer();
      const { store } = freshStore();
      const config = serverConfig(server.url);
      await signIn(config, store);
      const agent = agentFor(config, store);
      await agent.initialize();
      expect(agent.status).toBe('up');
      await server.revokeAll();
      const envelope = await agent.execute('echo', { text: 'x' }, callContext());
      expect(envelope).toMatchObject({ ok: false, error_type: 'invalid_credentials' });
      expect(agent.observedHealth()).toMatchObject({ status: 'down', reason: 'authorization_rejected' });
    },
    slow,
  );

  it(
    'without tokens the server is down as needs_authorization with the setup command, and nothing is registered',
    async () => {
      const server = await startServer();
      const { store } = freshStore();
      for (const auth of ['oauth', 'auto'] as const) {
        const agent = agentFor(serverConfig(server.url, { auth }), store);
        await agent.initialize();
        expect(agent.observedHealth()).toMatchObject({
          status: 'down',
          reason: 'needs_authorization',
          setupCommand: 'patchbay connect notes',
        });
      }
      expect(await server.stats()).toMatchObject({ registrations: 0, authorizations: 0 });
      expect(await store.listConnections('ana')).toEqual([]);
    },
    slow,
  );

  it(
    'refuses a redirect with the wrong state and still takes the right one',
    async () => {
      const server = await startServer();
      const { store } = freshStore();
      const config = serverConfig(server.url);
      let forged: { status: number; text: string } | undefined;
      let storedDuringForgery: unknown;
      await authorizeMcpServer(config, {
        store,
        subject: 'ana',
        timeoutMs: 60_000,
        onAuthorizationUrl: async (url) => {
          const page = await fetch(url, { redirect: 'manual' });
          const location = new URL(page.headers.get('location')!);
          const real = new URL(location);
          location.searchParams.set('state', 'forged-state');
          const response = await fetch(location);
          forged = { status: response.status, text: await response.text() };
          storedDuringForgery = (await store.getConnection('ana', 'notes'))?.credentials.access_token;
          await fetch(real);
        },
      });
      expect(forged?.status).toBe(400);
      expect(forged?.text).toMatch(/state mismatch/);
      expect(storedDuringForgery).toBeUndefined();
      expect((await store.getConnection('ana', 'notes'))?.credentials.access_token).toBeDefined();
    },
    slow,
  );

  it(
    'times out when nobody signs in, and keeps the pending verifier encrypted meanwhile',
    async () => {
      const server = await startServer();
      const { store } = freshStore();
      const config = serverConfig(server.url);
      let pending: Readonly<Record<string, string>> | undefined;
      await expect(
        authorizeMcpServer(config, {
          store,
          subject: 'ana',
          timeoutMs: 300,
          onAuthorizationUrl: async () => {
            pending = (await store.getConnection('ana', 'notes'))?.credentials;
          },
        }),
      ).rejects.toMatchObject({ code: 'mcp_authorization_timeout' });
      expect(pending?.code_verifier).toBeDefined();
      expect(pending?.access_token).toBeUndefined();
    },
    slow,
  );
});
