import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cliBinary, e2eTimeoutMs, useDemoService } from '../test-fixtures/run-patchbay.js';

// Every test here starts CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

const demo = useDemoService(23);
const recordings = mkdtempSync(join(tmpdir(), 'patchbay-startup-imports-'));
afterAll(() => rmSync(recordings, { recursive: true, force: true }));

// Loaded with --import before the CLI: records the URL of every module Node loads (ESM and
// require()) and writes them to PATCHBAY_TEST_MODULE_LOG when the process exits.
const recorder = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.PATCHBAY_TEST_MODULE_LOG, loaded.join('\\n')));
`)}`;

/** What a command must not load: each costs start-up and none is needed on this path. */
const heavy = {
  mcpSdk: /\/@modelcontextprotocol\/sdk\//,
  orchestrator: /\/(?:@patchbay\/orchestrator|packages\/orchestrator)\//,
  patchbayMcp: /\/(?:@patchbay\/mcp|packages\/mcp)\//,
  postgresDriver: /\/node_modules\/(?:\.pnpm\/pg@[^/]+\/node_modules\/)?pg\//,
  tokenizer: /\/gpt-tokenizer\//,
  console: /\/(?:@patchbay\/console|packages\/console)\//,
  memory: /\/(?:@patchbay\/memory|packages\/memory)\//,
  // The MCP client side: the SDK's client and its transports (a process spawner, fetch with SSE, OAuth).
  mcpSdkClient: /\/@modelcontextprotocol\/sdk\/dist\/esm\/client\//,
  processSpawner: /\/cross-spawn\//,
  oauth: /\/(?:pkce-challenge|@modelcontextprotocol\/sdk\/dist\/esm\/(?:client|shared)\/auth(?:-utils)?\.js)/,
  // The gateway over HTTP: the SDK's HTTP server transport, its HTTP adapter and Node's HTTP stack.
  mcpSdkHttpServer: /\/@modelcontextprotocol\/sdk\/dist\/esm\/server\/(?:webStandardS|s)treamableHttp\.js$/,
  httpAdapter: /\/@hono\/node-server\//,
  nodeHttp: /^node:https?$/,
  openTelemetry: /\/@opentelemetry\/api\//,
  // Process spawning: only `connect --open` (a browser) and the MCP client's stdio transport need it.
  childProcess: /^node:child_process$/,
};

function matching(modules: string[], patterns: (keyof typeof heavy)[]): Record<string, string[]> {
  return Object.fromEntries(
    patterns.map((name) => [name, modules.filter((url) => heavy[name].test(url)).slice(0, 3)]),
  );
}

function environment(log: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    DEMO_TOKEN: demo.service.goodToken,
    PATCHBAY_SECRET_KEY: demo.secretKey,
    PATCHBAY_TEST_MODULE_LOG: log,
  };
}

/** Runs a one-shot command with the recorder and returns the URLs of the modules it loaded. */
function modulesOf(args: string[], name: string): Promise<string[]> {
  const log = join(recordings, `${name}.log`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', recorder, cliBinary, ...args],
      { cwd: tmpdir(), env: environment(log), timeout: e2eTimeoutMs },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(`patchbay ${args.join(' ')} failed: ${stderr}`));
        else resolve(readFileSync(log, 'utf8').split('\n'));
      },
    );
  });
}

/** Starts `patchbay mcp` with the recorder, waits for its answer to tools/list, ends it, returns its modules. */
function modulesOfMcp(home: string): Promise<{ modules: string[]; tools: string[] }> {
  const log = join(recordings, 'mcp.log');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', recorder, cliBinary, '--home', home, 'mcp'], {
      cwd: tmpdir(),
      env: environment(log),
    });
    let output = '';
    let errors = '';
    let tools: string[] | undefined;
    const deadline = setTimeout(() => child.kill('SIGKILL'), e2eTimeoutMs - 5_000);
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const answer = output.split('\n').find((line) => line.includes('"id":2'));
      if (answer && tools === undefined) {
        tools = (JSON.parse(answer) as { result: { tools: { name: string }[] } }).result.tools.map(
          (tool) => tool.name,
        );
        child.stdin.end();
      }
    });
    child.once('exit', () => {
      clearTimeout(deadline);
      if (tools === undefined)
        reject(new Error(`patchbay mcp ended without answering tools/list: ${errors}`));
      else resolve({ modules: readFileSync(log, 'utf8').split('\n'), tools });
    });
    const send = (message: object) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
  });
}

describe('start-up loads only what the command needs', () => {
  it('patchbay connectors loads no MCP SDK, gate, Postgres driver, tokenizer, console, memory or node:child_process', async () => {
    const home = await demo.connectedHome();
    const modules = await modulesOf(['--home', home, 'connectors', '--json'], 'connectors');
    // The recorder works: the connector module itself was seen.
    expect(modules.some((url) => url.endsWith('/demo-connector.mjs'))).toBe(true);
    const loaded = matching(modules, [
      'mcpSdk',
      'orchestrator',
      'patchbayMcp',
      'postgresDriver',
      'tokenizer',
      'console',
      'memory',
      'childProcess',
    ]);
    expect(loaded).toEqual({
      mcpSdk: [],
      orchestrator: [],
      patchbayMcp: [],
      postgresDriver: [],
      tokenizer: [],
      console: [],
      memory: [],
      childProcess: [],
    });
  });

  it('patchbay mcp over stdio on SQLite answers tools/list without the Postgres driver, the MCP client, OAuth, HTTP, OpenTelemetry, tokenizer, console, memory or node:child_process', async () => {
    const home = await demo.connectedHome();
    const { modules, tools } = await modulesOfMcp(home);
    expect(tools).toContain('demo_list_items');
    expect(modules.some((url) => heavy.mcpSdk.test(url))).toBe(true);
    const notNeeded = [
      'postgresDriver',
      'tokenizer',
      'console',
      'memory',
      'mcpSdkClient',
      'processSpawner',
      'oauth',
      'mcpSdkHttpServer',
      'httpAdapter',
      'nodeHttp',
      'openTelemetry',
      'childProcess',
    ] as const;
    expect(matching(modules, [...notNeeded])).toEqual(
      Object.fromEntries(notNeeded.map((name) => [name, []])),
    );
  });

  it('patchbay --version and --help load no connector, gate or MCP SDK', async () => {
    for (const args of [['--version'], ['--help'], ['mcp', '--help']]) {
      const modules = await modulesOf(args, args.join('-').replaceAll('-', ''));
      expect(modules.some((url) => url.endsWith('/dist/cli.js'))).toBe(true);
      expect(
        matching(modules, ['mcpSdk', 'orchestrator', 'patchbayMcp', 'postgresDriver', 'tokenizer']),
      ).toEqual({
        mcpSdk: [],
        orchestrator: [],
        patchbayMcp: [],
        postgresDriver: [],
        tokenizer: [],
      });
      expect(modules.filter((url) => url.endsWith('/demo-connector.mjs'))).toEqual([]);
    }
  });
});
