// N = 1, 2 and 4 processes on one Postgres database and on one SQLite file, making gate calls
// (orchestrator.execute of one connector tool, outside a turn) and whole turns (scripted model, one
// tool call), interleaved (issue 32): every round runs each combination once, in an order that
// rotates from round to round, so load from elsewhere hits every side alike. Per run: calls (or turns)
// per second and the CPU time a call costs — the worker processes' and, for Postgres, their server
// processes' too (read from /proc: the server runs on this machine). Per round the ratios
// Postgres/SQLite of CPU per call at each N, and Postgres's throughput at N over N = 1; reported as
// {median,min,max} over the rounds. Each process runs multi-process-worker.mjs on its share of
// SUBJECTS (default 200, 8 connections each). Results in bench/results/store-processes.json.
//
// What this measures on a 2-core machine is the cost of a call, not speed-up with cores: 4
// processes share 2 cores with their server processes, so throughput staying level from 1 to 4
// processes is what holds here; that Postgres gains with more processes needs more cores than this
// machine has, and is left to a bigger one.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ratioOf, spreadOf } from '@patchbay/testing/bench';
import pg from 'pg';
import { openStore } from '../dist/index.js';
import { benchConnectors, benchCredentials, round, runWorkersTogether } from './bench-fixtures.mjs';

const subjects = Number(process.env.SUBJECTS ?? 200);
const connections = 8;
const rounds = Number(process.env.ROUNDS ?? 5);
const processCounts = [1, 2, 4];
/** Per subject and run: gate calls, or turns. */
const perSubject = { gate: Number(process.env.GATE_CALLS ?? 10), turn: Number(process.env.TURNS ?? 2) };
const secretKey = Buffer.alloc(32, 23).toString('base64');
const baseUrl = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `pb_bench_proc_${process.pid}_${randomBytes(3).toString('hex')}`;
const worker = join(import.meta.dirname, 'multi-process-worker.mjs');
const environment = { ...process.env, PATCHBAY_SECRET_KEY: secretKey };
const targets = { cpuPerCallAtMost: 1.3, throughputAt4OverAt1AtLeast: 1.0 };
const loadAtStart = os.loadavg().map((value) => round(value, 2));

async function seed(url, home) {
  const store = openStore({ url, home, env: environment });
  const connectors = benchConnectors(connections);
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
  await store.close();
}

let runs = 0;
/** One run: `processes` workers, started, then told to go together; their reports summed. */
async function run(url, home, processes, mode) {
  runs += 1;
  const label = `p${processes}-${mode}-${runs}`;
  const workers = Array.from({ length: processes }, (_, index) => {
    const child = spawn(
      process.execPath,
      [worker, url, home, processes, index, label, subjects, perSubject[mode], connections],
      { env: { ...environment, BENCH_MODE: mode }, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
  });
  const { reports, seconds } = await runWorkersTogether(workers);
  const calls = reports.reduce((sum, report) => sum + report.turns, 0);
  const failures = reports.flatMap((report) => report.failures);
  if (failures.length > 0) throw new Error(`${failures.length} failed calls: ${[...new Set(failures)]}`);
  const serverCpuMs = reports.reduce((sum, report) => sum + (report.serverCpuMs ?? 0), 0);
  const cpuMs = reports.reduce((sum, report) => sum + report.workerCpuMs, serverCpuMs);
  return { perSecond: calls / seconds, cpuMsPerCall: cpuMs / calls, serverCpuMsPerCall: serverCpuMs / calls };
}

const home = mkdtempSync(join(tmpdir(), 'patchbay-processes-bench-'));
const postgresUrl = new URL(baseUrl);
postgresUrl.searchParams.set('schema', schema);
const backends = { sqlite: join(home, 'patchbay.db'), postgres: postgresUrl.toString() };
const combinations = ['gate', 'turn'].flatMap((mode) =>
  processCounts.flatMap((processes) =>
    Object.keys(backends).map((backend) => ({ mode, processes, backend })),
  ),
);
const key = ({ mode, processes, backend }) => `${mode}_${backend}_p${processes}`;
const figures = Object.fromEntries(combinations.map((combination) => [key(combination), []]));
try {
  for (const url of Object.values(backends)) await seed(url, home);
  for (let roundIndex = 0; roundIndex < rounds; roundIndex += 1) {
    for (let offset = 0; offset < combinations.length; offset += 1) {
      const combination = combinations[(roundIndex + offset) % combinations.length];
      const { mode, processes, backend } = combination;
      figures[key(combination)].push(await run(backends[backend], home, processes, mode));
    }
    console.error(`round ${roundIndex + 1}/${rounds} done`);
  }
} finally {
  const client = new pg.Client({ connectionString: baseUrl });
  await client
    .connect()
    .then(() => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
    .catch(() => undefined);
  await client.end().catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
}

const series = (mode, backend, processes, field) =>
  figures[key({ mode, processes, backend })].map((entry) => entry[field]);
const report = {};
for (const mode of ['gate', 'turn']) {
  const byProcesses = {};
  for (const processes of processCounts) {
    byProcesses[`p${processes}`] = {
      sqlite_per_second: spreadOf(series(mode, 'sqlite', processes, 'perSecond'), 0),
      postgres_per_second: spreadOf(series(mode, 'postgres', processes, 'perSecond'), 0),
      sqlite_cpu_ms_per_call: spreadOf(series(mode, 'sqlite', processes, 'cpuMsPerCall'), 3),
      postgres_cpu_ms_per_call: spreadOf(series(mode, 'postgres', processes, 'cpuMsPerCall'), 3),
      // The share of it spent in the server's backends (the rest is the worker processes').
      postgres_server_cpu_ms_per_call: spreadOf(series(mode, 'postgres', processes, 'serverCpuMsPerCall'), 3),
      cpu_per_call_postgres_over_sqlite: ratioOf(
        series(mode, 'postgres', processes, 'cpuMsPerCall'),
        series(mode, 'sqlite', processes, 'cpuMsPerCall'),
        2,
      ),
      throughput_postgres_over_sqlite: ratioOf(
        series(mode, 'postgres', processes, 'perSecond'),
        series(mode, 'sqlite', processes, 'perSecond'),
        2,
      ),
    };
  }
  const scaling = Object.fromEntries(
    processCounts.slice(1).map((processes) => [
      `p${processes}_over_p1`,
      {
        postgres: ratioOf(
          series(mode, 'postgres', processes, 'perSecond'),
          series(mode, 'postgres', 1, 'perSecond'),
          2,
        ),
        sqlite: ratioOf(
          series(mode, 'sqlite', processes, 'perSecond'),
          series(mode, 'sqlite', 1, 'perSecond'),
          2,
        ),
      },
    ]),
  );
  report[mode] = {
    ...byProcesses,
    throughput_scaling: scaling,
    targets: {
      cpu_per_call_postgres_over_sqlite_at_most: targets.cpuPerCallAtMost,
      cpu_met_at_every_n: processCounts.every(
        (processes) =>
          byProcesses[`p${processes}`].cpu_per_call_postgres_over_sqlite.median <= targets.cpuPerCallAtMost,
      ),
      postgres_throughput_p4_over_p1_at_least: targets.throughputAt4OverAt1AtLeast,
      postgres_throughput_not_falling:
        scaling.p4_over_p1.postgres.median >= targets.throughputAt4OverAt1AtLeast,
    },
  };
}
const result = {
  benchmark: 'store-processes',
  node: process.version,
  cores: os.availableParallelism(),
  date: new Date().toISOString(),
  commit: process.env.BENCH_COMMIT ?? null,
  subjects,
  connections_per_subject: connections,
  per_subject_and_run: perSubject,
  in_flight_per_process: Number(process.env.IN_FLIGHT ?? 8),
  rounds,
  description:
    'N worker processes on one SQLite file / one Postgres database (store defaults: status cache, thread appends committed asynchronously), gate calls and one-call turns; all 12 combinations once a round, the order rotating; CPU per call = worker processes + (Postgres) their server backends; ratios per round as {median,min,max}',
  gate: report.gate,
  turn: report.turn,
  multi_core_claim:
    'not measured here: with 2 cores, throughput cannot rise with processes; Postgres ahead of SQLite with more processes needs a machine with more cores than processes',
  load_average_at_start: loadAtStart,
  load_average_at_end: os.loadavg().map((value) => round(value, 2)),
};
const directory = join(import.meta.dirname, '..', '..', '..', 'bench', 'results');
mkdirSync(directory, { recursive: true });
writeFileSync(join(directory, 'store-processes.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
