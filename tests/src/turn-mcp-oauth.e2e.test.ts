import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizeMcpServer, createMcpAgent, type McpHttpServerConfig } from '@patchbay/mcp';
import { createOrchestrator, type Orchestrator } from '@patchbay/orchestrator';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OAuthTestServer,
  startOAuthServer,
} from '../../packages/mcp/test-servers/oauth-server-process.mjs';

// A turn over a remote MCP server behind OAuth: the in-repo authorization + MCP server (a test
// stand-in, packages/mcp/test-servers/oauth-server.mjs) in a child process, the real SQLite store
// as status source and token store, the real MCP agent. Never signed in → the block says
// `not_configured` with the command; after `authorizeMcpServer` → `connected` and the model's call
// runs; after a revocation → the call answers `invalid_credentials` and the next block says so.

const timeoutMs = 120_000;
const subject = 'ana';
let server: OAuthTestServer | undefined;
let base: string;
let home: string;
let store: PatchbayStore;
const orchestrators: Orchestrator[] = [];

beforeAll(async () => {
  server = await startOAuthServer();
  base = server.base;
  home = mkdtempSync(join(tmpdir(), 'patchbay-turn-oauth-'));
  store = openStore({ home, secretKey: Buffer.alloc(32, 4).toString('hex'), env: {} });
}, timeoutMs);

afterAll(async () => {
  for (const orchestrator of orchestrators) await orchestrator.stop();
  store?.close();
  server?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const notes = (): McpHttpServerConfig => ({
  name: 'notes',
  transport: 'streamable-http',
  url: `${base}/mcp`,
  headers: {},
  auth: 'auto',
  timeout: 10_000,
  autoStart: true,
  trust: true,
});

/** A fresh orchestrator (as a new process would build it) with the notes server for `subject`. */
async function orchestratorWithNotes(): Promise<Orchestrator> {
  const orchestrator = createOrchestrator({ statusSource: store, connectors: [] });
  orchestrator.register(
    createMcpAgent(notes(), {
      oauth: { store, subject },
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    }),
  );
  await orchestrator.start();
  orchestrators.push(orchestrator);
  return orchestrator;
}

async function turn(orchestrator: Orchestrator, script: Parameters<typeof createScriptedModel>[0]) {
  const model = createScriptedModel(script);
  const result = await runTurn({
    model,
    thread: `t-${Math.random()}`,
    message: 'Echo hello through my notes server',
    subject,
    orchestrator,
    connectors: [],
    statusSource: store,
  });
  return { result, model };
}

describe('a turn over a remote MCP server that needs a sign-in', () => {
  it(
    'shows not_configured with the command, then connected after the sign-in, then invalid_credentials after a revocation',
    async () => {
      const before = await turn(await orchestratorWithNotes(), ['Run "patchbay connect notes" first.']);
      expect(before.result.trace.connectorStatus.notes).toEqual({
        status: 'not_configured',
        setup_command: 'patchbay connect notes',
      });
      expect(before.model.calls[0]!.tools?.map((tool) => tool.name)).not.toContain('echo');

      await authorizeMcpServer(notes(), {
        store,
        subject,
        timeoutMs: 60_000,
        onAuthorizationUrl: async (url) => {
          const page = await fetch(url, { redirect: 'manual' });
          await fetch(page.headers.get('location')!);
        },
      });
      const signedIn = await orchestratorWithNotes();
      const during = await turn(signedIn, [
        { toolCalls: [{ toolName: 'echo', input: { text: 'hello' } }] },
        'It said hello.',
      ]);
      expect(during.result.trace.connectorStatus.notes).toEqual({
        status: 'connected',
        tools: ['echo', 'echo_token'],
      });
      expect(during.result.trace.calls[0]).toMatchObject({ sent: true, envelope: { ok: true } });

      await fetch(`${base}/test/revoke-all`, { method: 'POST' });
      const revoked = await turn(signedIn, [
        { toolCalls: [{ toolName: 'echo', input: { text: 'again' } }] },
        'Your sign-in to notes was revoked.',
      ]);
      expect(revoked.result.trace.calls[0]).toMatchObject({
        envelope: { ok: false, error_type: 'invalid_credentials' },
      });
      const after = await turn(signedIn, ['Sign in again with "patchbay connect notes".']);
      expect(after.result.trace.connectorStatus.notes).toEqual({
        status: 'invalid_credentials',
        setup_command: 'patchbay connect notes',
        error: 'The server refused the stored sign-in (revoked or expired).',
      });
    },
    timeoutMs,
  );
});
