import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '@patchbay/store';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  allOutput,
  cliBinary,
  e2eTimeoutMs,
  packageDirectory,
  useDemoService,
} from '../test-fixtures/run-patchbay.js';

// Every test here starts CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

const clients: Client[] = [];
const children: ChildProcess[] = [];
const demo = useDemoService(11);
const { patchbay, connectedHome, secretKey } = demo;

const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() });

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  // The stored token was never printed by any run.
  expect(allOutput.join('\n')).not.toContain(demo.service.goodToken);
});

/** Starts `patchbay mcp` (built binary) as a stdio child and connects an SDK client to it. */
async function stdioClient(home: string, extraArgs: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliBinary, '--home', home, 'mcp', ...extraArgs],
    env: { ...baseEnv(), PATCHBAY_SECRET_KEY: secretKey },
    cwd: tmpdir(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'patchbay-e2e', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  // Connecting includes starting the child (node, the bundle, the store): give it the whole test budget.
  // Later requests keep the SDK's 60 s default; none of them starts a process.
  await client.connect(transport, { timeout: e2eTimeoutMs });
  clients.push(client);
  return { client, errors, stderr: () => stderr };
}

describe('patchbay mcp (stdio)', () => {
  it('lists the connected connector’s tools and runs calls through the orchestrator', async () => {
    const home = await connectedHome();
    const { client, errors, stderr } = await stdioClient(home);
    expect(client.getServerVersion()?.name).toBe('patchbay');
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual([
      'demo_delete_item',
      'demo_list_items',
      'refresh_connector_status',
    ]);
    expect(tools.find((tool) => tool.name === 'demo_delete_item')?.annotations?.destructiveHint).toBe(true);

    const listed = await client.callTool({ name: 'demo_list_items', arguments: {} });
    expect(listed.isError).toBe(false);
    expect(listed.structuredContent).toMatchObject({
      ok: true,
      data: { items: [{ id: 'a1' }, { id: 'b2' }] },
    });

    const destructive = await client.callTool({ name: 'demo_delete_item', arguments: { item_id: 'a1' } });
    expect(destructive.isError).toBe(true);
    const proposalId = (destructive.structuredContent as { proposal_id: string }).proposal_id;
    expect(destructive.structuredContent).toMatchObject({ error_type: 'approval_required' });
    expect(demo.service.deleted).toEqual([]);

    // The proposal lives in the store the other commands use: an operator approves it from a shell.
    const pending = await patchbay(home, ['proposals', '--json', '--state', 'pending']);
    expect(pending.stdout).toContain(proposalId);

    const status = await client.readResource({ uri: 'patchbay://connector-status' });
    expect((status.contents[0] as { text: string }).text).toContain(
      '"demo":{"scopes":["items:read","items:write"]',
    );
    // Nothing but JSON-RPC on stdout: the client never failed to parse a line.
    expect(errors).toEqual([]);
    expect(stderr()).toContain('serving 1 connector(s) for "default" over stdio');
    expect(JSON.stringify([tools, listed, destructive, status]) + stderr()).not.toContain(
      demo.service.goodToken,
    );
  });

  it('answers every request read before the end of input, then exits 0', async () => {
    const home = await connectedHome();
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pipe', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'demo_list_items', arguments: {} } },
    ];
    const child = spawn(process.execPath, [cliBinary, '--home', home, 'mcp'], {
      env: { ...baseEnv(), PATCHBAY_SECRET_KEY: secretKey },
      cwd: tmpdir(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin!.end(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    expect(await exited).toBe(0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: unknown });
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1]!.result).toMatchObject({ isError: false, structuredContent: { ok: true } });
  });

  it('answers a not-connected tool with connector_not_configured and tells the host when a connector is disabled', async () => {
    const home = await connectedHome();
    const { client } = await stdioClient(home, ['--refresh-interval', '100']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('demo_list_items');
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
    );
    // An admin disables the connector from another process; the gateway sees it in the shared store.
    expect((await patchbay(home, ['disable', 'demo'])).code).toBe(0);
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['refresh_connector_status']);
    const status = await client.readResource({ uri: 'patchbay://connector-status' });
    expect((status.contents[0] as { text: string }).text).not.toContain('demo');

    const other = demo.newHome();
    const fresh = await stdioClient(other);
    const refused = await fresh.client.callTool({ name: 'demo_list_items', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      error_type: 'connector_not_configured',
      setup_url: 'https://demo.example/settings/tokens',
    });
  });
});

describe('patchbay mcp with mcp-servers.json', () => {
  it('serves the connector and the upstream server’s tools through one gateway and one approval gate', async () => {
    const home = await connectedHome();
    const echoServer = join(packageDirectory, 'test-fixtures', 'echo-mcp-server.mjs');
    writeFileSync(
      join(home, 'mcp-servers.json'),
      JSON.stringify({
        servers: [
          {
            name: 'echo',
            command: process.execPath,
            args: [echoServer],
            env: { ECHO_WITH_NOTE: '1' },
            prefix: 'up',
          },
        ],
      }),
    );
    const { client, errors, stderr } = await stdioClient(home);
    // The server connects in the background, but the first tools/list waits for it (bounded): a host
    // that lists once right after initialize (the MCP Inspector CLI) must see the server's tools.
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual([
      'demo_delete_item',
      'demo_list_items',
      'up_echo',
      'up_save_note',
      'refresh_connector_status',
    ]);
    expect(tools.find((tool) => tool.name === 'up_echo')?.annotations).toEqual({ readOnlyHint: true });

    const echoed = await client.callTool({ name: 'up_echo', arguments: { text: 'through patchbay' } });
    expect(echoed.isError).toBe(false);
    expect(echoed.structuredContent).toMatchObject({ ok: true, data: 'through patchbay' });
    const listed = await client.callTool({ name: 'demo_list_items', arguments: {} });
    expect(listed.structuredContent).toMatchObject({ ok: true });
    // Arguments the upstream schema refuses are answered by the gate, never sent.
    const missing = await client.callTool({ name: 'up_echo', arguments: {} });
    expect(missing.structuredContent).toMatchObject({ ok: false, error_type: 'needs_input' });

    // The server is untrusted and save_note is not read-only: held in the same store as connector proposals,
    // and an operator's approval runs it once.
    const held = await client.callTool({ name: 'up_save_note', arguments: { note: 'call Bob' } });
    expect(held.structuredContent).toMatchObject({ ok: false, error_type: 'approval_required' });
    const proposalId = (held.structuredContent as { proposal_id: string }).proposal_id;
    const approved = await patchbay(home, ['approve', proposalId]);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ ok: true, data: 'saved: call Bob' });

    expect(errors).toEqual([]);
    expect(stderr()).toContain('serving 1 connector(s) and 1 MCP server(s) (echo) for "default" over stdio');
    // Calls of upstream tools are audited like connector calls.
    const store = openStore({ home, env: { PATCHBAY_SECRET_KEY: secretKey } });
    try {
      const calls = (await store.audit.list({ limit: 1000 }))
        .map((record) => record.entry)
        .filter((entry) => entry.event === 'tool_called');
      expect(calls).toEqual(
        expect.arrayContaining([
          // The owning server is recorded: a same-named tool of another server is not this one.
          expect.objectContaining({ tool: 'up_echo', owner: 'echo', outcome: 'ok', via: 'mcp' }),
          expect.objectContaining({ tool: 'up_echo', outcome: 'needs_input', via: 'mcp' }),
        ]),
      );
    } finally {
      store.close();
    }
  });
});

describe('admin policy and tool names across MCP servers', () => {
  const echoServer = join(packageDirectory, 'test-fixtures', 'echo-mcp-server.mjs');
  const server = (name: string, prefix: string) => ({
    name,
    command: process.execPath,
    args: [echoServer],
    prefix,
  });

  it('patchbay servers names a tool two servers declare; disable/enable take a server name', async () => {
    const home = await connectedHome();
    writeFileSync(
      join(home, 'mcp-servers.json'),
      JSON.stringify({ servers: [server('echo', 'up'), server('twin', 'up'), server('other', 'ot')] }),
    );
    const listed = await patchbay(home, ['servers', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const report = JSON.parse(listed.stdout) as {
      servers: { name: string; disabled: boolean; tools: string[] }[];
      tool_conflicts: { tool: string; owners: string[] }[];
    };
    expect(report.tool_conflicts).toEqual([{ tool: 'up_echo', owners: ['echo', 'twin'] }]);
    expect(report.servers.map((entry) => [entry.name, entry.disabled])).toEqual([
      ['echo', false],
      ['twin', false],
      ['other', false],
    ]);
    const table = await patchbay(home, ['servers']);
    expect(table.stdout).toContain('Tool "up_echo" is declared by echo and twin');

    const disabled = await patchbay(home, ['disable', 'other']);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toContain('Disabled MCP server other for everyone.');
    const after = JSON.parse((await patchbay(home, ['servers', '--json'])).stdout) as typeof report;
    expect(after.servers.find((entry) => entry.name === 'other')?.disabled).toBe(true);

    const unknown = await patchbay(home, ['disable', 'nosuch']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('Unknown connector "nosuch"');

    const enabled = await patchbay(home, ['enable', 'other']);
    expect(enabled.stdout).toContain('Enabled MCP server other for everyone.');
  });

  it('patchbay mcp leaves a disabled server out and its gate refuses the call', async () => {
    const home = await connectedHome();
    writeFileSync(
      join(home, 'mcp-servers.json'),
      JSON.stringify({ servers: [server('echo', 'up'), server('other', 'ot')] }),
    );
    expect((await patchbay(home, ['disable', 'other'])).code).toBe(0);
    const { client } = await stdioClient(home);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('up_echo');
    expect(names).not.toContain('ot_echo');
    const refused = await client.callTool({ name: 'ot_echo', arguments: { text: 'x' } });
    expect(refused.structuredContent).toMatchObject({ ok: false, error_type: 'disabled_by_admin' });
    const called = await patchbay(home, ['call', 'ot_echo', '--args', '{"text":"x"}']);
    expect(called.code).not.toBe(0);
    expect(called.stdout + called.stderr).toContain('disabled_by_admin');
  });
});

/** Starts `patchbay mcp --http --port 0` and waits for the URL it prints on stderr. */
function startHttp(home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cliBinary, '--home', home, 'mcp', '--http', '--port', '0'], {
    env: { ...baseEnv(), PATCHBAY_SECRET_KEY: secretKey },
    cwd: tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once('exit', (code) => reject(new Error(`patchbay mcp exited with ${code}: ${stderr}`)));
  });
}

describe('patchbay mcp --http', () => {
  it('serves the tools over streamable HTTP on loopback and exits cleanly on SIGTERM', async () => {
    const home = await connectedHome();
    const { child, url } = await startHttp(home);
    const client = new Client({ name: 'patchbay-e2e-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'demo_delete_item',
      'demo_list_items',
      'refresh_connector_status',
    ]);
    const result = await client.callTool({ name: 'demo_list_items', arguments: {} });
    expect(result.structuredContent).toMatchObject({
      ok: true,
      data: { items: [{ id: 'a1' }, { id: 'b2' }] },
    });
    await client.close();
    clients.length = 0;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a non-loopback host and transport flags without --http', async () => {
    const home = demo.newHome();
    const remote = await patchbay(home, ['mcp', '--http', '--host', '0.0.0.0']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--host must be a loopback address');
    const portWithoutHttp = await patchbay(home, ['mcp', '--port', '4000']);
    expect(portWithoutHttp.code).toBe(2);
    const badPort = await patchbay(home, ['mcp', '--http', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    // A port another program holds: one readable line, exit 1.
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const taken = String((holder.address() as { port: number }).port);
      const busy = await patchbay(home, ['mcp', '--http', '--port', taken]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toBe(
        `patchbay: Cannot listen on 127.0.0.1:${taken} (already in use). Pick another with --port, or --port 0 for a free one.\n`,
      );
    } finally {
      holder.close();
    }
  });
});
