// Several processes × 1,000 subjects running turns (scripted model, one tool call each, two turns a
// subject) against one SQLite file and one Postgres database (PATCHBAY_TEST_DATABASE_URL or the
// local server): turns per second, p50/p95 of a status capture and of a thread append, failed
// turns, and lost writes (messages an append acknowledged that the store does not hold afterwards).
// 1, 2 and 4 processes; ratios Postgres/SQLite and the scaling from 1 to 4 processes, the CPU time
// a turn costs each side (worker and, for Postgres, server processes), and the durability of each
// side's commits. Postgres runs twice: with the store's default (thread appends commit
// asynchronously, as SQLite's WAL + synchronous = NORMAL does) and with every commit flushed.
// Notification latency is announce-latency.bench.mjs. Results in bench/results/store-multi-process.json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openStore } from '../dist/index.js';
import {
  benchConnectors,
  benchCredentials,
  percentile,
  round,
  runWorkersTogether,
} from './bench-fixtures.mjs';

const subjects = Number(process.env.SUBJECTS ?? 1_000);
const turnsPerSubject = Number(process.env.TURNS_PER_SUBJECT ?? 2);
const connections = Number(process.env.CONNECTIONS ?? 8);
const processCounts = (process.env.PROCESSES ?? '1,2,4').split(',').map(Number);
const secretKey = Buffer.alloc(32, 11).toString('base64');
const postgresUrl = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const worker = join(import.meta.dirname, 'multi-process-worker.mjs');
const environment = { ...process.env, PATCHBAY_SECRET_KEY: secretKey };

async function seed(url, home) {
  const store = openStore({ url, home, env: environment });
  const connectors = benchConnectors(connections);
  const started = performance.now();
  for (let subject = 0; subject < subjects; subject += 1) {
    await Promise.all(
      connectors.map((connector, index) =>
        store.saveConnection(`subject-${subject}`, {
          connectorId: connector.id,
          credentials: benchCredentials(`subject-${subject}`, index),
          scopes: [],
        }),
      ),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return round(seconds, 1);
}

function startWorker(backend, home, processes, index, runLabel) {
  const child = spawn(
    process.execPath,
    [worker, backend.url, home, processes, index, runLabel, subjects, turnsPerSubject, connections],
    {
      env: { ...environment, BENCH_ASYNC_COMMIT: backend.asyncCommit ?? '' },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, lines };
}

/** Messages the store holds in every thread of a run. */
async function storedMessages(url, home, runLabel) {
  const store = openStore({ url, home, env: environment });
  let total = 0;
  for (let subject = 0; subject < subjects; subject += 1) {
    total += (await store.threads.load(`${runLabel}-subject-${subject}`))?.messages.length ?? 0;
  }
  await store.close();
  return total;
}

async function run(backend, home, processes) {
  const { name, url } = backend;
  const runLabel = `${name}-p${processes}-${Date.now()}`;
  const workers = Array.from({ length: processes }, (_, index) =>
    startWorker(backend, home, processes, index, runLabel),
  );
  const { reports, seconds } = await runWorkersTogether(workers);
  const turns = reports.reduce((sum, report) => sum + report.turns, 0);
  const failures = reports.flatMap((report) => report.failures);
  const captures = reports.flatMap((report) => report.captureMs);
  const appends = reports.flatMap((report) => report.appendMs);
  const histories = reports.flatMap((report) => report.historyMs);
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const inFlight = Number(process.env.IN_FLIGHT ?? 8);
  const acknowledged = reports.reduce((sum, report) => sum + report.acknowledgedMessages, 0);
  const stored = await storedMessages(url, home, runLabel);
  const workerCpuMs = reports.reduce((sum, report) => sum + report.workerCpuMs, 0);
  const serverCpuMs = reports.every((report) => report.serverCpuMs !== undefined)
    ? reports.reduce((sum, report) => sum + report.serverCpuMs, 0)
    : undefined;
  const result = {
    store: name,
    processes,
    turns,
    failed_turns: failures.length,
    failure_codes: [...new Set(failures)],
    seconds: round(seconds, 2),
    turns_per_second: round(turns / seconds, 1),
    capture_p50_ms: round(percentile(captures, 0.5), 3),
    capture_p95_ms: round(percentile(captures, 0.95), 3),
    append_p50_ms: round(percentile(appends, 0.5), 3),
    append_p95_ms: round(percentile(appends, 0.95), 3),
    history_p50_ms: round(percentile(histories, 0.5), 3),
    history_p95_ms: round(percentile(histories, 0.95), 3),
    // A turn's time in one lane (turns in flight × processes × seconds / turns), and the mean of
    // what it waits on the store for: the thread's history, status captures (a turn may capture
    // more than once), the append. The rest is the turn's own work and waiting for a CPU.
    lane_ms_per_turn: round((inFlight * processes * seconds * 1000) / Math.max(1, turns), 3),
    store_wait_ms_per_turn: {
      history: round(mean(histories), 3),
      capture: round((mean(captures) * captures.length) / Math.max(1, turns), 3),
      append: round(mean(appends), 3),
    },
    acknowledged_messages: acknowledged,
    stored_messages: stored,
    lost_writes: Math.max(0, acknowledged - stored),
    // Where a turn's time goes: CPU of the worker processes and, for Postgres, of their server
    // processes, per turn. Both sides share the same 2 cores, so their sum bounds turns/s.
    worker_cpu_ms_per_turn: round(workerCpuMs / turns, 3),
    ...(serverCpuMs === undefined ? {} : { server_cpu_ms_per_turn: round(serverCpuMs / turns, 3) }),
  };
  console.log(JSON.stringify(result));
  return result;
}

/**
 * The stores compared, with what a commit of each survives. The like-for-like pair is SQLite and
 * `postgres` (the store's default): on both, the turn's write (the thread append) is acknowledged
 * before it reaches the disk, so a power failure or OS crash may lose the last moment's appends
 * and never corrupts. `postgres-durable` flushes every commit, for what that costs.
 */
const backends = [
  {
    name: 'sqlite',
    durability:
      'WAL, synchronous = NORMAL: a commit reaches the OS at once and the disk at the next checkpoint; a power failure or OS crash may lose the last commits, never corrupts',
  },
  {
    name: 'postgres',
    asyncCommit: 'threads',
    durability:
      "asyncCommit 'threads' (default): thread appends commit with synchronous_commit = off (a server or machine crash may lose the last ~0.6 s of appends, never corrupts); every other write waits for the WAL flush",
  },
  ...(process.env.BENCH_DURABLE === '0'
    ? []
    : [
        {
          name: 'postgres-durable',
          asyncCommit: 'none',
          durability:
            "asyncCommit 'none': every commit waits for the WAL flush (fsync), as the server is configured",
        },
      ]),
];

const home = mkdtempSync(join(tmpdir(), 'patchbay-multi-process-'));
const schema = `pb_bench_mp_${process.pid}`;
const results = [];
const seeding = {};
try {
  const sqliteUrl = join(home, 'patchbay.db');
  const postgres = new URL(postgresUrl);
  postgres.searchParams.set('schema', schema);
  for (const backend of backends) {
    backend.url = backend.name === 'sqlite' ? sqliteUrl : postgres.toString();
  }
  for (const backend of backends.slice(0, 2)) seeding[backend.name] = await seed(backend.url, home);
  for (const processes of processCounts) {
    for (const backend of backends) results.push(await run(backend, home, processes));
  }
} finally {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client
    .connect()
    .then(() => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    .catch(() => undefined);
  await client.end().catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
}

const find = (name, processes) =>
  results.find((entry) => entry.store === name && entry.processes === processes);
const ratios = {};
for (const processes of processCounts) {
  const sqlite = find('sqlite', processes);
  const postgres = find('postgres', processes);
  const durable = find('postgres-durable', processes);
  ratios[`p${processes}`] = {
    turns_per_second_postgres_over_sqlite: round(postgres.turns_per_second / sqlite.turns_per_second, 2),
    capture_p95_postgres_over_sqlite: round(postgres.capture_p95_ms / sqlite.capture_p95_ms, 2),
    append_p95_postgres_over_sqlite: round(postgres.append_p95_ms / sqlite.append_p95_ms, 2),
    ...(durable
      ? {
          turns_per_second_postgres_durable_over_sqlite: round(
            durable.turns_per_second / sqlite.turns_per_second,
            2,
          ),
        }
      : {}),
  };
}
const first = processCounts[0];
const last = processCounts.at(-1);
const scaling = Object.fromEntries(
  backends.map(({ name }) => [
    name,
    round(find(name, last).turns_per_second / find(name, first).turns_per_second, 2),
  ]),
);
const summary = {
  benchmark: 'store-multi-process',
  node: process.version,
  date: new Date().toISOString(),
  subjects,
  turns_per_subject: turnsPerSubject,
  connections_per_subject: connections,
  in_flight_per_process: Number(process.env.IN_FLIGHT ?? 8),
  durability: Object.fromEntries(backends.map(({ name, durability }) => [name, durability])),
  load_average_at_end: os.loadavg().map((value) => round(value, 2)),
  cores: os.availableParallelism(),
  seeding_seconds: seeding,
  results,
  postgres_over_sqlite: ratios,
  [`scaling_turns_per_second_p${first}_to_p${last}`]: scaling,
  lost_writes_total: results.reduce((sum, entry) => sum + entry.lost_writes, 0),
  targets: {
    lost_writes_zero: results.every((entry) => entry.lost_writes === 0),
    postgres_within_2x_of_sqlite_one_process:
      find('postgres', first).turns_per_second * 2 >= find('sqlite', first).turns_per_second,
    postgres_ahead_at_most_processes:
      find('postgres', last).turns_per_second > find('sqlite', last).turns_per_second,
  },
};
const directory = join(import.meta.dirname, '..', '..', '..', 'bench', 'results');
mkdirSync(directory, { recursive: true });
writeFileSync(join(directory, 'store-multi-process.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
