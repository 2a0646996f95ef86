// The gate's call on Postgres against SQLite (issue 32): orchestrator.execute() of one connector tool,
// outside a turn (as the MCP gateway and an app calling the gate directly make it), subjects taken in
// turn from SUBJECTS (default 200) with 8 connections each, at 1 and at 10 calls in flight. Paths are
// measured interleaved in one run (measureInterleaved of @patchbay/testing/bench): per round the
// median wall time of a call and this process's CPU time per call; ratios are per round, reported
// with their spread. Postgres runs with its status cache (the default) and without it (every read a
// round trip: what the gate paid before). The server's own CPU is not in the client's figure.
// Results in bench/results/store-gate.json.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrchestrator } from '@patchbay/orchestrator';
import { measureInterleaved, ratioOf, spreadOf } from '@patchbay/testing/bench';
import { openStore } from '../dist/index.js';
import { benchConnectors, benchCredentials, dropSchema, round, writeBenchResult } from './bench-fixtures.mjs';

const subjectCount = Number(process.env.SUBJECTS ?? 200);
const connections = 8;
const inFlight = 10;
const rounds = Number(process.env.ROUNDS ?? 12);
const perRound = Number(process.env.PER_ROUND ?? 200);
const secretKey = Buffer.alloc(32, 13).toString('base64');
const baseUrl = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `pb_bench_gate_${process.pid}_${randomBytes(3).toString('hex')}`;
const targets = { throughputAtLeast: 0.8, cpuPerCallAtMost: 1.3 };

const url = new URL(baseUrl);
url.searchParams.set('schema', schema);
const home = mkdtempSync(join(tmpdir(), 'patchbay-gate-bench-'));
const subjects = Array.from({ length: subjectCount }, (_, index) => `subject-${index}`);
const connectors = benchConnectors(connections);

async function seeded(store) {
  for (const subject of subjects) {
    await Promise.all(
      connectors.map((connector, index) =>
        store.saveConnection(subject, {
          connectorId: connector.id,
          credentials: benchCredentials(subject, index),
          scopes: [],
        }),
      ),
    );
  }
  return store;
}

/** One gate call after another, each for the next subject, through `orchestrator`. */
function caller(orchestrator) {
  let next = 0;
  const call = async () => {
    const subject = subjects[next++ % subjects.length];
    const envelope = await orchestrator.execute('svc0_lookup', { query: 'x' }, { subject });
    if (!envelope.ok) throw new Error(`gate call failed: ${JSON.stringify(envelope)}`);
  };
  // Ten calls in flight: one path call is ten gate calls (per-call figures divide by ten).
  const ten = () => Promise.all(Array.from({ length: inFlight }, call));
  return { one: call, ten };
}

const stores = [];
try {
  const sqlite = await seeded(openStore({ home, secretKey, env: {} }));
  stores.push(sqlite);
  const postgres = await seeded(openStore({ url: url.toString(), home, secretKey, env: {} }));
  stores.push(postgres);
  const uncached = openStore({ url: url.toString(), home, secretKey, env: {}, statusCache: false });
  stores.push(uncached);
  const gates = {};
  for (const [name, store] of Object.entries({ sqlite, postgres, postgres_uncached: uncached })) {
    const orchestrator = createOrchestrator({ statusSource: store, connectors });
    await orchestrator.start();
    gates[name] = caller(orchestrator);
  }
  await postgres.load(subjects[0]); // starts listening
  await postgres.listening();
  const figures = await measureInterleaved(
    {
      sqlite_1: gates.sqlite.one,
      postgres_1: gates.postgres.one,
      postgres_uncached_1: gates.postgres_uncached.one,
      sqlite_10: gates.sqlite.ten,
      postgres_10: gates.postgres.ten,
      postgres_uncached_10: gates.postgres_uncached.ten,
    },
    { warmup: 2 * subjectCount, rounds, perRound },
  );
  // Per gate call: a path call of the "_10" paths is ten gate calls.
  const perCall = (name) => {
    const divisor = name.endsWith('_10') ? inFlight : 1;
    return {
      wallUs: figures[name].medianUsPerRound.map((value) => value / divisor),
      cpuUs: figures[name].cpuUsPerRound.map((value) => value / divisor),
    };
  };
  const describePath = (name) => {
    const { wallUs, cpuUs } = perCall(name);
    return {
      calls_per_second: spreadOf(
        wallUs.map((value) => 1e6 / value),
        0,
      ),
      cpu_us_per_call: spreadOf(cpuUs, 1),
    };
  };
  const compare = (over, under) => ({
    // Throughput ratio: calls/s of `over` over calls/s of `under`, per round.
    throughput: ratioOf(perCall(under).wallUs, perCall(over).wallUs, 2),
    cpu_per_call: ratioOf(perCall(over).cpuUs, perCall(under).cpuUs, 2),
  });
  const paths = Object.fromEntries(Object.keys(figures).map((name) => [name, describePath(name)]));
  const ratios = {
    postgres_over_sqlite_1: compare('postgres_1', 'sqlite_1'),
    postgres_over_sqlite_10: compare('postgres_10', 'sqlite_10'),
    postgres_uncached_over_sqlite_1: compare('postgres_uncached_1', 'sqlite_1'),
    postgres_uncached_over_sqlite_10: compare('postgres_uncached_10', 'sqlite_10'),
  };
  const verdict = (key) => ({
    throughput_at_least: targets.throughputAtLeast,
    cpu_per_call_at_most: targets.cpuPerCallAtMost,
    throughput_met: ratios[key].throughput.median >= targets.throughputAtLeast,
    cpu_met: ratios[key].cpu_per_call.median <= targets.cpuPerCallAtMost,
  });
  const result = {
    benchmark: 'store-gate',
    node: process.version,
    cores: os.availableParallelism(),
    date: new Date().toISOString(),
    subjects: subjectCount,
    connections_per_subject: connections,
    rounds,
    calls_per_round: { one_in_flight: perRound, ten_in_flight: perRound * inFlight },
    description:
      'orchestrator.execute() of one connector tool (answered in process), subjects in turn; Postgres with the status cache (default) and without it; client process CPU only (the Postgres server is another process)',
    paths,
    ratios,
    targets: { at_1: verdict('postgres_over_sqlite_1'), at_10: verdict('postgres_over_sqlite_10') },
    load_average_at_end: os.loadavg().map((value) => round(value, 2)),
  };
  writeBenchResult('store-gate.json', result);
} finally {
  for (const store of stores) await store.close();
  rmSync(home, { recursive: true, force: true });
  await dropSchema(baseUrl, schema);
}
