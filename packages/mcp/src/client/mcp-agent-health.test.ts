import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseMcpServersConfig } from './config.js';
import { callContext, childServerTimeoutMs, controllableConfig } from './controllable-fixture.js';
import { createMcpAgent, type McpAgent, type McpAgentOptions } from './mcp-agent.js';

// Tests here start MCP servers as child processes: see childServerTimeoutMs for the budget.
vi.setConfig({ testTimeout: childServerTimeoutMs, hookTimeout: childServerTimeoutMs });

const agents: McpAgent[] = [];
const servers: Server[] = [];

function agent(config: Parameters<typeof createMcpAgent>[0], options: McpAgentOptions = {}): McpAgent {
  const created = createMcpAgent(config, { retryDelayMs: 10, ...options });
  agents.push(created);
  return created;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function httpConfig(name: string, port: number) {
  return {
    name,
    transport: 'streamable-http' as const,
    url: `http://127.0.0.1:${port}/mcp`,
    headers: {},
    timeout: 10_000,
    autoStart: true,
    trust: false,
  };
}

afterEach(async () => {
  await Promise.all(agents.splice(0).map((item) => item.shutdown()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('observedHealth', () => {
  it('gives a down server the time of its scheduled reconnect, in the future', async () => {
    const down = agent(controllableConfig('missing', { command: '/nonexistent/mcp-server' }), {
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    await down.initialize();
    const health = down.observedHealth();
    expect(health).toMatchObject({ status: 'down', reason: 'command_not_found' });
    expect(Date.parse(health.retryAt ?? '')).toBeGreaterThan(Date.now());
  });

  it('gives an up server no retryAt and no reason', async () => {
    const up = agent(controllableConfig('up'));
    expect(up.observedHealth()).toEqual({ status: 'stopped' });
    await up.initialize();
    expect(up.observedHealth()).toEqual({ status: 'up' });
  });
});

describe('why a server is down', () => {
  it('names a missing command (ENOENT)', async () => {
    const down = agent(controllableConfig('nobin', { command: '/nonexistent/mcp-server' }));
    await down.initialize();
    expect(await down.health()).toMatchObject({
      status: 'down',
      reason: 'command_not_found',
      detail:
        'The MCP server "nobin" could not be started: its command "/nonexistent/mcp-server" was not found (ENOENT).',
    });
  });

  it('names a crash before initialize finished', async () => {
    const down = agent(controllableConfig('crashy', { env: { CONTROLLABLE_CRASH_ON_START: '1' } }));
    await down.initialize();
    expect(down.observedHealth()).toMatchObject({ status: 'down', reason: 'crashed_on_start' });
  });

  it('names an HTTP 401 as needing authorization', async () => {
    const port = await listen((_request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="/.well-known/x"' }).end();
    });
    const down = agent(httpConfig('locked', port));
    await down.initialize();
    expect(down.observedHealth()).toMatchObject({
      status: 'down',
      reason: 'needs_authorization',
      detail: expect.stringContaining('needs authorization (HTTP 401)'),
    });
  });

  it('names a refused connection', async () => {
    // A port that was just free: listen, note it, close.
    const port = await listen(() => undefined);
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const down = agent(httpConfig('refused', port));
    await down.initialize();
    expect(down.observedHealth()).toMatchObject({ status: 'down', reason: 'connection_refused' });
  });

  it('throws agent_init_failed with the same sentence when asked to', async () => {
    const down = agent(controllableConfig('nobin2', { command: '/nonexistent/mcp-server' }), {
      throwOnStartFailure: true,
    });
    await expect(down.initialize()).rejects.toThrow(/was not found \(ENOENT\)/);
    expect(down.observedHealth()).toMatchObject({ reason: 'command_not_found' });
  });
});

describe('redaction of declared values', () => {
  it('redacts a token passed under a harmless name, and leaves short flags readable', async () => {
    // No known token shape (no ghp_ prefix): only redaction by value can catch it.
    const token = 'q8Zr2LmX0pVw7TnK4sYbHd31';
    const [config] = parseMcpServersConfig(
      {
        mcpServers: {
          echoing: {
            command: process.execPath,
            args: controllableConfig('x').args,
            env: { GH: `\${GITHUB_TOKEN}`, REGION: 'eu-west-internal-7', VERBOSE: '1', LEVEL: 'debug' },
          },
        },
      },
      { environment: { GITHUB_TOKEN: token } },
    ).servers;
    const echoing = agent(config as NonNullable<typeof config>);
    await echoing.initialize();
    const read = async (name: string) => echoing.execute('read_env', { name }, callContext());
    const results = [await read('GH'), await read('REGION')];
    // Safety property: zero occurrences of a declared value in what the server sent back.
    const leaks = results
      .map((result) => JSON.stringify(result))
      .filter((text) => text.includes(token) || text.includes('eu-west-internal-7'));
    expect(leaks).toEqual([]);
    expect(results[0]).toMatchObject({ ok: true, data: { name: 'GH', value: '[REDACTED]' } });
    // Below the length floor: redacting these would blank every "1" and "debug" in every result.
    expect(await read('VERBOSE')).toMatchObject({ ok: true, data: { value: '1' } });
    expect(await read('LEVEL')).toMatchObject({ ok: true, data: { value: 'debug' } });
    const echoed = await echoing.execute('echo', { text: 'level 1, debug on' }, callContext());
    expect(echoed).toMatchObject({ ok: true, data: 'level 1, debug on' });
  });
});
