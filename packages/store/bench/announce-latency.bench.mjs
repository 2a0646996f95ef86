// Announcement latency across processes: process A (announce-writer.mjs) connects a connector;
// this process, B, is subscribed to the same database and times from just before A's write is
// requested to B's listener hearing it — what a gateway's list_changed waits for. SQLite (one file)
// and Postgres (one schema on PATCHBAY_TEST_DATABASE_URL or the local server). Results in
// bench/results/store-announce.json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openStore } from '../dist/index.js';

const rounds = Number(process.env.ROUNDS ?? 200);
const secretKey = Buffer.alloc(32, 3).toString('base64');
const postgresUrl = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

async function measure(name, url, home) {
  const environment = { ...process.env, PATCHBAY_SECRET_KEY: secretKey };
  const store = openStore({ url, home, secretKey, env: environment });
  const waiting = new Map();
  store.subscribe((change) => {
    if (change.kind !== 'connection') return;
    waiting.get(change.connectorId)?.(performance.now());
  });
  if (store.listening) await store.listening();
  const writer = spawn(process.execPath, [join(import.meta.dirname, 'announce-writer.mjs'), url, home], {
    env: environment,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const written = createInterface({ input: writer.stdout })[Symbol.asyncIterator]();
  const latencies = [];
  for (let round = 0; round < rounds + 10; round += 1) {
    const connectorId = `c${round}`;
    const heard = new Promise((resolve) => waiting.set(connectorId, resolve));
    const started = performance.now();
    writer.stdin.write(`bench ${connectorId}\n`);
    const at = await heard;
    await written.next();
    waiting.delete(connectorId);
    if (round >= 10) latencies.push(at - started); // the first rounds warm the writer up
  }
  writer.stdin.end('end\n');
  await new Promise((resolve) => writer.on('exit', resolve));
  await store.close();
  const result = {
    store: name,
    rounds,
    p50_ms: Number(percentile(latencies, 0.5).toFixed(2)),
    p95_ms: Number(percentile(latencies, 0.95).toFixed(2)),
    max_ms: Number(Math.max(...latencies).toFixed(2)),
  };
  console.log(JSON.stringify(result));
  return result;
}

const home = mkdtempSync(join(tmpdir(), 'patchbay-announce-'));
const schema = `pb_bench_${process.pid}`;
const results = [];
try {
  results.push(await measure('sqlite', join(home, 'patchbay.db'), home));
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  results.push(await measure('postgres', url.toString(), home));
} finally {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client
    .connect()
    .then(() => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    .catch(() => undefined);
  await client.end().catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
}
const directory = join(import.meta.dirname, '..', '..', '..', 'bench', 'results');
mkdirSync(directory, { recursive: true });
writeFileSync(
  join(directory, 'store-announce.json'),
  `${JSON.stringify({ measured_at: new Date().toISOString(), note: 'connect in process A to listener in process B; includes A applying the write', results }, null, 2)}\n`,
);
