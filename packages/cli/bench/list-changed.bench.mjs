// Benchmark (issue 16): how long after a status change made by another process an MCP host hears
// `notifications/tools/list_changed` from `patchbay mcp`. The gateway runs as its own process (the
// built CLI over stdio, polling set to 10 minutes so only the store's announcement can be measured);
// this process is the host (an SDK client) and also the other process that changes the status,
// through the store API `patchbay disable` / `patchbay enable` use. Each round toggles one connector
// and times from just before the write to the host's notification. SQLite (one file) and Postgres
// (one schema on PATCHBAY_TEST_DATABASE_URL or the local server). Target: p95 ≤ 100 ms.
// Writes bench/results/list-changed.json at the repository root.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '@patchbay/store';
import { syntheticModule } from './synthetic-connector.mjs';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(packageDirectory, 'dist', 'cli.js');
const resultsFile = join(packageDirectory, '..', '..', 'bench', 'results', 'list-changed.json');
const rounds = Number(process.env.ROUNDS ?? 60);
const warmup = 5;
const secretKey = Buffer.alloc(32, 6).toString('base64');
const postgresBase = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
// pg is the store's optional peer; resolve it where the store finds it.
const pg = createRequire(fileURLToPath(import.meta.resolve('@patchbay/store')))('pg');

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

async function measure(name, databaseUrl) {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-list-changed-'));
  try {
    mkdirSync(join(home, 'connectors'));
    writeFileSync(join(home, 'connectors', 'synth.mjs'), syntheticModule('synth'));
    writeFileSync(
      join(home, 'patchbay.config.json'),
      JSON.stringify({ connectors: [{ module: './connectors/synth.mjs' }] }),
    );
    const env = {
      PATCHBAY_SECRET_KEY: secretKey,
      ...(databaseUrl ? { PATCHBAY_DATABASE_URL: databaseUrl } : {}),
    };
    const store = openStore({ home, secretKey, env: { ...env } });
    await store.saveConnection('default', {
      connectorId: 'synth',
      credentials: { token: 'bench-token' },
      scopes: ['read', 'write'],
    });

    const client = new Client({ name: 'list-changed-bench', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, '--home', home, 'mcp', '--refresh-interval', '600000'],
        env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
        stderr: process.env.BENCH_DEBUG ? 'inherit' : 'ignore',
      }),
    );
    let heard = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => heard(performance.now()));
    const tools = async () => (await client.listTools()).tools.length;
    const connectedTools = await tools();
    // The gateway subscribes to the store as it starts (on Postgres a LISTEN, one round trip away).
    await new Promise((resolve) => setTimeout(resolve, 500));

    const latencies = [];
    for (let round = 0; round < rounds + warmup; round += 1) {
      const disable = round % 2 === 0;
      const notified = new Promise((resolve) => {
        heard = resolve;
      });
      const started = performance.now();
      if (disable) await store.disableConnector('synth');
      else await store.enableConnector('synth');
      const at = await notified;
      // The host re-lists, as a host does on list_changed; the answer must reflect the change.
      const count = await tools();
      if (count < connectedTools !== disable) throw new Error(`round ${round}: ${count} tools listed`);
      if (round >= warmup) latencies.push(at - started);
    }
    await client.close();
    await store.close();
    latencies.sort((left, right) => left - right);
    const round2 = (value) => Math.round(value * 100) / 100;
    return {
      store: name,
      rounds,
      p50_ms: round2(percentile(latencies, 0.5)),
      p95_ms: round2(percentile(latencies, 0.95)),
      max_ms: round2(latencies.at(-1)),
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const results = [await measure('sqlite', undefined)];
const schema = `pb_bench_list_changed_${process.pid}`;
const url = new URL(postgresBase);
url.searchParams.set('schema', schema);
try {
  results.push(await measure('postgres', url.toString()));
} finally {
  const admin = new pg.Client({ connectionString: postgresBase });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}

const output = {
  benchmark: 'list-changed',
  description:
    'Status change written by another process (disable/enable through the store) to notifications/tools/list_changed at an MCP host of `patchbay mcp` (stdio, polling off)',
  node: process.version,
  cpus: cpus().length,
  target_p95_ms: 100,
  results,
  measured_at: new Date().toISOString(),
};
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
