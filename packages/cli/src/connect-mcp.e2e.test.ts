import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@patchbay/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type OAuthTestServer, startOAuthServer } from '../../mcp/test-servers/oauth-server-process.mjs';
import {
  allOutput,
  cliBinary,
  e2eTimeoutMs,
  ensureBuilt,
  runPatchbay,
  storeFiles,
} from '../test-fixtures/run-patchbay.js';

// `patchbay connect <server>` against the in-repo OAuth authorization server + protected MCP server
// (a test stand-in, packages/mcp/test-servers/oauth-server.mjs) in a child process: the CLI prints
// the authorization URL, a scripted "browser" follows it to the CLI's loopback redirect, and the
// tokens land encrypted in the store; `servers` then reaches the server, `disconnect` forgets them.

vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

const secretKey = Buffer.alloc(32, 11).toString('base64');
let oauthServer: OAuthTestServer | undefined;
let base: string;
let home: string;

beforeAll(async () => {
  ensureBuilt();
  oauthServer = await startOAuthServer();
  base = oauthServer.base;
  home = mkdtempSync(join(tmpdir(), 'patchbay-cli-oauth-'));
  writeFileSync(
    join(home, 'mcp-servers.json'),
    JSON.stringify({ mcpServers: { notes: { url: `${base}/mcp`, auth: 'oauth', trust: true } } }),
  );
});

afterAll(() => {
  oauthServer?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const environment = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? tmpdir(),
  PATCHBAY_SECRET_KEY: secretKey,
});

/** Runs `patchbay connect notes` and plays the browser once the URL is printed. */
function connectWithBrowser(extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [cliBinary, '--home', home, '--user', 'ana', 'connect', 'notes', '--timeout', '60', ...extra],
      { env: environment(), cwd: tmpdir() },
    );
    let stdout = '';
    let stderr = '';
    let browsed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(stderr)?.[1];
      if (url && !browsed) {
        browsed = true;
        void (async () => {
          const page = await fetch(url, { redirect: 'manual' });
          await fetch(page.headers.get('location')!);
        })();
      }
    });
    child.on('close', (code) => {
      allOutput.push(stdout, stderr);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

describe('patchbay connect <MCP server> (OAuth)', () => {
  it('signs in, stores the tokens encrypted, reaches the server, and disconnect forgets them', async () => {
    const connected = await connectWithBrowser();
    expect(connected.stderr).toContain('To sign in to notes, open this URL in a browser');
    expect(connected.code).toBe(0);
    expect(connected.stdout).toMatch(
      /Signed in to notes for ana\. Granted scopes: tools\. Tools: echo, echo_token\./,
    );

    const store = openStore({ home, secretKey, env: {} });
    const credentials = (await store.getConnection('ana', 'notes'))?.credentials;
    store.close();
    expect(credentials?.access_token).toBeDefined();
    const servers = await runPatchbay(['--home', home, '--user', 'ana', 'servers', '--json'], environment());
    expect(servers.code).toBe(0);
    expect(JSON.parse(servers.stdout).servers).toEqual([
      expect.objectContaining({ name: 'notes', status: 'up', tools: ['echo', 'echo_token'] }),
    ]);
    // A server that echoes the token: the CLI's call output has it redacted.
    const call = await runPatchbay(
      ['--home', home, '--user', 'ana', 'call', 'echo_token', '--json'],
      environment(),
    );
    expect(call.stdout).toContain('Your token is');

    const tokens = [credentials!.access_token!, credentials!.refresh_token!];
    for (const token of tokens) {
      for (const file of storeFiles(home)) expect(file.bytes.includes(Buffer.from(token))).toBe(false);
      for (const output of allOutput) expect(output).not.toContain(token);
    }

    const disconnected = await runPatchbay(
      ['--home', home, '--user', 'ana', 'disconnect', 'notes'],
      environment(),
    );
    expect(disconnected.code).toBe(0);
    expect(disconnected.stdout).toContain('Disconnected notes for ana.');
    const after = await runPatchbay(['--home', home, '--user', 'ana', 'servers', '--json'], environment());
    expect(JSON.parse(after.stdout).servers[0]).toMatchObject({
      name: 'notes',
      status: 'down',
      reason: 'needs_authorization',
      setup_command: 'patchbay connect notes',
    });
  });

  it('refuses to sign in to a stdio server and to a bad --timeout', async () => {
    const stdioHome = mkdtempSync(join(tmpdir(), 'patchbay-cli-oauth-'));
    try {
      writeFileSync(
        join(stdioHome, 'mcp-servers.json'),
        JSON.stringify({ mcpServers: { local: { command: 'node', args: ['server.js'] } } }),
      );
      const stdio = await runPatchbay(['--home', stdioHome, 'connect', 'local'], environment());
      expect(stdio.code).toBe(2);
      expect(stdio.stderr).toContain('does not sign in with OAuth (it runs over stdio)');
      const timeout = await runPatchbay(
        ['--home', home, '--user', 'ana', 'connect', 'notes', '--timeout', 'soon'],
        environment(),
      );
      expect(timeout.code).toBe(2);
      expect(timeout.stderr).toContain('--timeout expects a number of seconds');
    } finally {
      rmSync(stdioHome, { recursive: true, force: true });
    }
  });
});
