// `patchbay mcp --http` against a plain SDK two-hop proxy over streamable HTTP (issue 32): an MCP host
// (the SDK Client on StreamableHTTPClientTransport, in this process) calls one read tool many times
// through three server processes on loopback, each on a free port:
//
// - postgres_gateway: the built `patchbay mcp --http` (dist/cli.js), its store on Postgres
//   (PATCHBAY_DATABASE_URL, a fresh `?schema=` dropped at the end), serving one connector module listed
//   in patchbay.config.json whose read tool answers in process (host → HTTP → gateway → gate → tool);
// - sqlite_gateway: the same binary and connector, its store a SQLite file in a temporary home;
// - plain_proxy: this file run with `--proxy`: an SDK Server on StreamableHTTPServerTransport that
//   forwards tools/list and tools/call to an SDK Client, whose upstream is an SDK Server in the same
//   process (in-memory transport) answering the same tool with the bytes the gateway answers (host →
//   HTTP → proxy Server → Client → in-memory → upstream Server). What differs: the proxy pays one
//   extra in-memory MCP hop (Client/Server, no serialisation) that the gateway, calling the connector's
//   function directly, does not; the gateway pays its gate (status read, schema, scopes), the envelope
//   and an audit row per call, which the proxy does not. Both have one process boundary (HTTP).
//
// Measured interleaved, call by call: a round is PER_ROUND steps, each one call of every path (order
// rotating), fresh server processes each repetition (REPETITIONS × ROUNDS). Per round: the median wall
// time of a call, and each server process's CPU per call from /proc/<pid>/stat (plus, on Postgres, the
// CPU of its server backends, found by application_name). Ratios are per round, reported as median
// [min–max] over every round. Writes bench/results/cli-mcp-http.json at the repository root.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import os, { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { median, ratioOf, spreadOf } from '@patchbay/testing/bench';

const toolName = 'bench_search_issues';
const urlPattern = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/;

// ─── The plain proxy (run as `node mcp-http.bench.mjs --proxy <spec.json>`) ──────────────────────────

async function runProxy(specFile) {
  const { tools, result } = JSON.parse(readFileSync(specFile, 'utf8'));
  // The upstream MCP server, answering the tool with the gateway's own answer.
  const upstreamServer = new Server(
    { name: 'bench-upstream', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  upstreamServer.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  upstreamServer.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name !== toolName) throw new Error(`unknown tool ${request.params.name}`);
    return result;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await upstreamServer.connect(serverSide);
  const upstream = new Client({ name: 'bench-proxy-upstream', version: '1.0.0' });
  await upstream.connect(clientSide);

  const sessions = new Map();
  const readJson = (request) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
      request.on('error', reject);
    });
  const server = createServer(async (request, response) => {
    try {
      const sessionId = request.headers['mcp-session-id'];
      if (sessionId !== undefined) {
        const transport = sessions.get(sessionId);
        if (!transport) {
          response.writeHead(404).end();
          return;
        }
        await transport.handleRequest(request, response);
        return;
      }
      const body = await readJson(request);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      const proxy = new Server({ name: 'plain-proxy', version: '1.0.0' }, { capabilities: { tools: {} } });
      proxy.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
      proxy.setRequestHandler(CallToolRequestSchema, (request, extra) =>
        upstream.callTool(request.params, CallToolResultSchema, { signal: extra.signal }),
      );
      await proxy.connect(transport);
      await transport.handleRequest(request, response, body);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    }
  });
  server.listen(0, '127.0.0.1', () => {
    process.stderr.write(`plain proxy at http://127.0.0.1:${server.address().port}/mcp\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

// ─── The benchmark ────────────────────────────────────────────────────────────────────────────────

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = join(packageDirectory, '..', '..');
const cli = join(packageDirectory, 'dist', 'cli.js');
const resultsFile = join(repositoryRoot, 'bench', 'results', 'cli-mcp-http.json');
const repetitions = Number(process.env.REPETITIONS ?? 3);
const rounds = Number(process.env.ROUNDS ?? 8);
const perRound = Number(process.env.PER_ROUND ?? 150);
const warmup = Number(process.env.WARMUP ?? 300);
const target = 1.2;
const ticksPerSecond = 100; // Linux's USER_HZ: /proc counts CPU time in these ticks.
const secretKey = Buffer.alloc(32, 32).toString('base64');
const baseUrl = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `pb_bench_mcp_http_${process.pid}_${randomBytes(3).toString('hex')}`;
const applicationName = `pb_bench_mcp_http_${process.pid}`;
const paths = ['postgres_gateway', 'sqlite_gateway', 'plain_proxy'];

const connectorUrl = import.meta.resolve('@patchbay/connector');
const envelopeUrl = import.meta.resolve('@patchbay/envelope');
const zodUrl = import.meta.resolve('zod');

/** A connector module with one read tool answering a small, fixed list of issues in process. */
const connectorModule = `import { defineConnector, defineTool } from '${connectorUrl}';
import { success } from '${envelopeUrl}';
import { z } from '${zodUrl}';
const issues = Array.from({ length: 5 }, (_, index) => ({
  id: 1000 + index,
  title: 'Benchmark issue number ' + index,
  state: index % 2 === 0 ? 'open' : 'closed',
  url: 'https://tracker.example/issues/' + (1000 + index),
}));
export function createBench() {
  return defineConnector({
    id: 'bench',
    name: 'Bench tracker',
    description: 'A synthetic issue tracker for the MCP HTTP benchmark.',
    auth: { kind: 'bearer', scopes: [{ name: 'read', description: 'Read issues' }] },
    capabilities: ['search issues'],
    wouldEnable: ['Search issues from chat'],
    setupUrl: 'https://tracker.example/setup',
    tools: [defineTool({
      name: '${toolName}',
      description: 'Search the tracker for issues.',
      input: z.object({ query: z.string().describe('What to look for') }),
      effect: 'read',
      requiredScopes: ['read'],
      execute: async () => success({ issues, total: issues.length }),
    })],
    verify: async () => ({ valid: true, scopes: ['read'] }),
  });
}
export const connectorFactory = createBench;
`;

const round = (value, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;
const loadavg = () => os.loadavg().map((value) => round(value, 2));

function postgresUrl(extra = {}) {
  const url = new URL(baseUrl);
  for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, value);
  return url.toString();
}

/** CPU time (user + system) of process `pid` so far, in ms; 0 if it is gone. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** Starts a server process and waits for the URL it prints on stderr. */
function startServer(args, env, label) {
  const child = spawn(process.execPath, args, { env, cwd: tmpdir(), stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const onExit = (code) => reject(new Error(`${label} exited with ${code}: ${stderr}`));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = urlPattern.exec(stderr);
      if (match) {
        child.off('exit', onExit);
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', onExit);
  });
}

function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function host(url, name) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const callArguments = { query: 'is:open label:bug' };

/** One repetition: fresh server processes for every path, interleaved rounds. */
async function repetition(home, configFile, admin, figures, repetitionIndex) {
  const gatewayArgs = [cli, '--home', home, '--config', configFile, 'mcp', '--http', '--port', '0'];
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: home, PATCHBAY_SECRET_KEY: secretKey };
  const servers = {};
  const hosts = {};
  try {
    servers.sqlite_gateway = await startServer(gatewayArgs, baseEnv, 'patchbay mcp (SQLite)');
    servers.postgres_gateway = await startServer(
      gatewayArgs,
      { ...baseEnv, PATCHBAY_DATABASE_URL: postgresUrl({ schema, application_name: applicationName }) },
      'patchbay mcp (Postgres)',
    );
    hosts.sqlite_gateway = await host(servers.sqlite_gateway.url, 'bench-host-sqlite');
    hosts.postgres_gateway = await host(servers.postgres_gateway.url, 'bench-host-postgres');

    // The gateway's answer, given to the proxy's upstream so both paths carry the same bytes.
    const { tools } = await hosts.sqlite_gateway.listTools();
    const tool = tools.find((entry) => entry.name === toolName);
    if (!tool) throw new Error(`the gateway does not list ${toolName}: ${JSON.stringify(tools)}`);
    const answer = await hosts.sqlite_gateway.callTool({ name: toolName, arguments: callArguments });
    if (answer.structuredContent?.ok !== true)
      throw new Error(`gateway call failed: ${JSON.stringify(answer)}`);
    const specFile = join(home, 'proxy-spec.json');
    writeFileSync(specFile, JSON.stringify({ tools: [tool], result: answer }));
    servers.plain_proxy = await startServer(
      [fileURLToPath(import.meta.url), '--proxy', specFile],
      baseEnv,
      'proxy',
    );
    hosts.plain_proxy = await host(servers.plain_proxy.url, 'bench-host-proxy');

    for (const name of paths) {
      await hosts[name].listTools(); // as a host does; the SDK client then checks outputs against it
      const checked = await hosts[name].callTool({ name: toolName, arguments: callArguments });
      if (checked.structuredContent?.ok !== true || checked.structuredContent?.data?.total !== 5)
        throw new Error(`${name} answered ${JSON.stringify(checked)}`);
    }
    const answerBytes = JSON.stringify(answer).length;

    const call = (name) => hosts[name].callTool({ name: toolName, arguments: callArguments });
    for (const name of paths) for (let index = 0; index < warmup; index += 1) await call(name);

    /** CPU so far of each server backend of the Postgres gateway, by pid. */
    const backendCpu = async () => {
      const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ]);
      return new Map(rows.map((row) => [row.pid, cpuMsOf(row.pid)]));
    };
    // A round: perRound steps, each one call of every path (order rotating), so drift and the other
    // work on the machine fall on every path alike; each server process works only on its own calls,
    // so its CPU over the round is its CPU for those calls.
    const orders = paths.map((_, shift) => paths.map((__, index) => paths[(index + shift) % paths.length]));
    for (let roundIndex = 0; roundIndex < rounds; roundIndex += 1) {
      const times = Object.fromEntries(paths.map((name) => [name, []]));
      const serverBefore = Object.fromEntries(paths.map((name) => [name, cpuMsOf(servers[name].child.pid)]));
      const backendsBefore = await backendCpu();
      for (let step = 0; step < perRound; step += 1) {
        for (const name of orders[(step + roundIndex + repetitionIndex) % orders.length]) {
          const started = performance.now();
          await call(name);
          times[name].push((performance.now() - started) * 1000);
        }
      }
      const backendsAfter = await backendCpu();
      for (const name of paths) {
        const entry = figures[name];
        const sorted = times[name].sort((a, b) => a - b);
        entry.medianUs.push(median(sorted));
        entry.p90Us.push(sorted[Math.floor(0.9 * sorted.length)]);
        entry.serverCpuMs.push((cpuMsOf(servers[name].child.pid) - serverBefore[name]) / perRound);
      }
      // Backends that ended during the round are left out; ones that began count from their start.
      let backendMs = 0;
      for (const [pid, after] of backendsAfter) {
        if (after === 0) continue;
        backendMs += after - (backendsBefore.get(pid) ?? 0);
      }
      figures.postgres_gateway.backendCpuMs.push(backendMs / perRound);
    }
    return answerBytes;
  } finally {
    await Promise.all(Object.values(hosts).map((client) => client.close().catch(() => undefined)));
    await Promise.all(Object.values(servers).map((server) => stopServer(server.child)));
  }
}

async function main() {
  const started = performance.now();
  const loadStart = loadavg();
  const home = mkdtempSync(join(tmpdir(), 'patchbay-mcp-http-bench-'));
  // The store's driver (its optional peer): drops the schema, finds the gateway's server backends.
  const pg = createRequire(fileURLToPath(import.meta.resolve('@patchbay/store')))('pg');
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  let schemaCreated = false;
  try {
    mkdirSync(join(home, 'connectors'));
    writeFileSync(join(home, 'connectors', 'bench.mjs'), connectorModule);
    const configFile = join(home, 'patchbay.config.json');
    writeFileSync(
      configFile,
      JSON.stringify({ connectors: [{ module: './connectors/bench.mjs' }] }, null, 2),
    );

    // One connection with the read scope, in each store.
    const { openStore } = await import('@patchbay/store');
    const connection = { connectorId: 'bench', credentials: { token: 'bench-token' }, scopes: ['read'] };
    const sqlite = openStore({ home, secretKey, env: {} });
    await sqlite.saveConnection('default', connection);
    await sqlite.close();
    schemaCreated = true;
    const postgres = openStore({ url: postgresUrl({ schema }), home, secretKey, env: {} });
    await postgres.saveConnection('default', connection);
    await postgres.close();

    const figures = Object.fromEntries(
      paths.map((name) => [name, { medianUs: [], p90Us: [], serverCpuMs: [], backendCpuMs: [] }]),
    );
    let answerBytes = 0;
    for (let index = 0; index < repetitions; index += 1)
      answerBytes = await repetition(home, configFile, admin, figures, index);
    const loadEnd = loadavg();

    const { postgres_gateway: pgFigures, sqlite_gateway: sqliteFigures, plain_proxy: proxyFigures } = figures;
    const pgTotalCpu = pgFigures.serverCpuMs.map((value, index) => value + pgFigures.backendCpuMs[index]);
    const latencyPg = ratioOf(pgFigures.medianUs, proxyFigures.medianUs);
    const latencySqlite = ratioOf(sqliteFigures.medianUs, proxyFigures.medianUs);
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: repositoryRoot,
      encoding: 'utf8',
    }).trim();
    const result = {
      benchmark: 'cli-mcp-http',
      description:
        'MCP host tools/call of one read tool over streamable HTTP on loopback: `patchbay mcp --http` (store on Postgres, and on SQLite) vs a plain SDK two-hop proxy in its own process',
      commit,
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      load_average: { start: loadStart, end: loadEnd },
      method: `${repetitions} repetitions × ${rounds} rounds, fresh server processes per repetition, ${warmup} warm-up calls per path; a round is ${perRound} steps, each one call of every path in turn (order rotating), one call at a time; figures per round, ratios per round, reported as median [min–max] over all ${repetitions * rounds} rounds`,
      paths: {
        postgres_gateway:
          'host → HTTP → patchbay mcp --http (dist/cli.js; store on Postgres, default settings: status cache, batched audit) → gate → connector tool in process',
        sqlite_gateway: 'the same, store a SQLite file in a temporary home',
        plain_proxy:
          'host → HTTP → SDK Server (StreamableHTTPServerTransport) → SDK Client → in-memory transport → SDK Server answering the same bytes, one process',
      },
      differences:
        'the proxy makes one more in-memory MCP hop (Client → Server) than the gateway, which calls the connector function directly; the gateway runs its gate, the envelope and an audit append per call',
      answer_bytes: answerBytes,
      per_call: Object.fromEntries(
        paths.map((name) => [
          name,
          {
            median_us: spreadOf(figures[name].medianUs, 0),
            p90_us: spreadOf(figures[name].p90Us, 0),
            server_process_cpu_ms: spreadOf(figures[name].serverCpuMs),
            ...(name === 'postgres_gateway'
              ? { postgres_backends_cpu_ms: spreadOf(figures[name].backendCpuMs) }
              : {}),
          },
        ]),
      ),
      ratios: {
        latency_postgres_gateway_vs_proxy: latencyPg,
        latency_sqlite_gateway_vs_proxy: latencySqlite,
        latency_postgres_vs_sqlite_gateway: ratioOf(pgFigures.medianUs, sqliteFigures.medianUs),
        server_cpu_postgres_gateway_vs_proxy: ratioOf(pgFigures.serverCpuMs, proxyFigures.serverCpuMs),
        server_cpu_postgres_gateway_with_backends_vs_proxy: ratioOf(pgTotalCpu, proxyFigures.serverCpuMs),
        server_cpu_sqlite_gateway_vs_proxy: ratioOf(sqliteFigures.serverCpuMs, proxyFigures.serverCpuMs),
      },
      cpu_note: `server CPU from /proc/<pid>/stat, ${1000 / ticksPerSecond} ms resolution (≈${round(1000 / ticksPerSecond / perRound, 3)} ms per call per round)`,
      target_latency_ratio_vs_proxy: target,
      meets_target: { postgres: latencyPg.median <= target, sqlite: latencySqlite.median <= target },
      seconds: round((performance.now() - started) / 1000, 1),
    };
    mkdirSync(dirname(resultsFile), { recursive: true });
    writeFileSync(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    if (schemaCreated) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
    if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
    else console.log(home);
  }
}

if (process.argv[2] === '--proxy') await runProxy(process.argv[3]);
else await main();
