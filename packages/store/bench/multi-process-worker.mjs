// One process of the multi-process benchmark: opens the store, says "ready", waits for "go", then
// runs two turns (scripted model, one tool call each) for every subject i with i % processes ===
// index, several turns in flight, and prints one JSON line: turns, failures, the times of every
// status capture (the turn's load), every thread load and every thread append, the messages each
// append stored, and the CPU time of the process (and, on Postgres, of its server processes).
// With BENCH_MODE=gate it makes gate calls instead of turns (processes.bench.mjs).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createOrchestrator } from '@patchbay/orchestrator';
import { runTurn } from '@patchbay/turn';
import pg from 'pg';
import { openStore } from '../dist/index.js';
import { benchConnectors, toolThenAnswerModel } from './bench-fixtures.mjs';

const [url, home, processesText, indexText, runLabel, subjectsText, turnsText, connectionsText] =
  process.argv.slice(2);
const processes = Number(processesText);
const index = Number(indexText);
const subjects = Number(subjectsText);
const turnsPerSubject = Number(turnsText);
const inFlight = Number(process.env.IN_FLIGHT ?? 8);
const connectors = benchConnectors(Number(connectionsText));
/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const ticksPerSecond = 100;

const asyncCommit = process.env.BENCH_ASYNC_COMMIT || undefined;
// BENCH_MODE=gate: gate calls (orchestrator.execute of one tool, outside a turn) instead of turns;
// "turns" in the report then counts the calls.
const gateCalls = process.env.BENCH_MODE === 'gate';
const postgres = /^postgres/.test(url);
// Named per worker, so its server processes can be found (and their CPU time read) at the end.
const applicationName = `pb_bench_${process.pid}`;
const storeUrl = postgres ? withApplicationName(url, applicationName) : url;
const store = openStore({ url: storeUrl, home, ...(asyncCommit ? { asyncCommit } : {}) });
const captureMs = [];
const appendMs = [];
const historyMs = [];
let acknowledgedMessages = 0;
const timed = (target, name, into, after) => {
  const original = target[name].bind(target);
  return async (...args) => {
    const started = performance.now();
    const result = await original(...args);
    into.push(performance.now() - started);
    after?.(args);
    return result;
  };
};
const statusSource = {
  load: timed(store, 'load', captureMs),
  loadConnectors: store.loadConnectors?.bind(store),
  markRateLimited: store.markRateLimited.bind(store),
  markInvalidCredentials: store.markInvalidCredentials.bind(store),
};
const threadStore = {
  load: timed(store.threads, 'load', historyMs),
  append: timed(store.threads, 'append', appendMs, ([, messages]) => {
    acknowledgedMessages += messages.length;
  }),
};
const orchestrator = createOrchestrator({ statusSource, connectors });
await orchestrator.start();
// Warm up: connect (as many connections as turns in flight), migrate, resolve the key, prepare
// statements (not counted): the steady state of a long-running process is what is measured.
await Promise.all(Array.from({ length: inFlight }, () => store.load('subject-0')));
const serverBefore = postgres ? await serverCpuMs(url, applicationName) : undefined;

const lines = createInterface({ input: process.stdin });
const iterator = lines[Symbol.asyncIterator]();
process.stdout.write('ready\n');
await iterator.next();
const cpuBefore = process.cpuUsage();

const mine = [];
for (let subject = index; subject < subjects; subject += processes) mine.push(`subject-${subject}`);
let turns = 0;
const failures = [];
const started = Date.now();
let next = 0;
async function lane() {
  while (next < mine.length) {
    const subject = mine[next++];
    for (let turn = 0; turn < turnsPerSubject; turn += 1) {
      if (gateCalls) {
        const envelope = await orchestrator.execute('svc0_lookup', { query: 'release notes' }, { subject });
        if (envelope.ok) turns += 1;
        else failures.push(envelope.error_type);
        continue;
      }
      try {
        await runTurn({
          model: toolThenAnswerModel('svc0_lookup'),
          thread: `${runLabel}-${subject}`,
          message: `Find the release notes (turn ${turn}).`,
          subject,
          orchestrator,
          connectors,
          statusSource,
          threadStore,
        });
        turns += 1;
      } catch (error) {
        failures.push(String(error?.code ?? error?.message ?? error));
      }
    }
  }
}
await Promise.all(Array.from({ length: inFlight }, lane));
const ended = Date.now();
const cpu = process.cpuUsage(cpuBefore);
const workerCpuMs = (cpu.user + cpu.system) / 1000;
const serverCpu = postgres ? await serverCpuMs(url, applicationName) : undefined;
await orchestrator.stop();
await store.close();
process.stdout.write(
  `${JSON.stringify({
    index,
    turns,
    failures,
    started,
    ended,
    captureMs,
    appendMs,
    historyMs,
    acknowledgedMessages,
    workerCpuMs,
    // Server processes that began during the run count from 0 (their start-up is in it).
    serverCpuMs: serverCpu === undefined ? undefined : serverCpu.total - serverBefore.total,
  })}\n`,
);
lines.close();

function withApplicationName(target, name) {
  const parsed = new URL(target);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

/**
 * CPU time (user + system, ms) the server spent in the backends of connections named
 * `applicationName`, read from /proc (the server is on this machine); 10 ms resolution a process.
 */
async function serverCpuMs(target, applicationName) {
  const parsed = new URL(target);
  parsed.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
      applicationName,
    ]);
    let total = 0;
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command name.
        total += ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
      } catch {
        // A backend that ended meanwhile, or a server on another machine: not counted.
      }
    }
    return { total };
  } finally {
    await client.end();
  }
}
