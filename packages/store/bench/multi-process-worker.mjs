// One process of the multi-process benchmark: opens the store, says "ready", waits for "go", then
// runs two turns (scripted model, one tool call each) for every subject i with i % processes ===
// index, several turns in flight, and prints one JSON line: turns, failures, the times of every
// status capture (the turn's load) and every thread append, and the messages each append stored.
import { createInterface } from 'node:readline';
import { createOrchestrator } from '@patchbay/orchestrator';
import { runTurn } from '@patchbay/turn';
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

const store = openStore({ url, home });
const captureMs = [];
const appendMs = [];
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
  load: store.threads.load.bind(store.threads),
  append: timed(store.threads, 'append', appendMs, ([, messages]) => {
    acknowledgedMessages += messages.length;
  }),
};
const orchestrator = createOrchestrator({ statusSource, connectors });
await orchestrator.start();
// Warm up: connect, migrate, resolve the key, prepare statements (not counted).
await store.load('subject-0');

const lines = createInterface({ input: process.stdin });
const iterator = lines[Symbol.asyncIterator]();
process.stdout.write('ready\n');
await iterator.next();

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
await orchestrator.stop();
await store.close();
process.stdout.write(
  `${JSON.stringify({ index, turns, failures, started, ended, captureMs, appendMs, acknowledgedMessages })}\n`,
);
lines.close();
