// The store's hot path, as same-run ratios: (a) orchestrator.execute() of one connector tool with the
// SQLite store as status source against the in-memory one, at 8 and 100 connections of the subject;
// (b) a whole runTurn (status capture, one tool call through the gate, the thread appended to the
// store) against the AI SDK's own tool loop (generateText with the same tools and the same scripted
// model), with the SQLite store and with in-memory state. Rounds alternate the sides so machine
// load hits both alike; medians of rounds are reported. Results in bench/results/store-hot-path.json (BENCH_LABEL=before writes
// store-hot-path.before.json, for a run on the code before a change).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createInMemoryThreadStore, runTurn } from '@patchbay/turn';
import { generateText, stepCountIs, tool } from 'ai';
import { openStore } from '../dist/index.js';
import {
  benchConnectors,
  benchCredentials,
  lookupAnswer,
  lookupInput,
  percentile,
  round,
  toolThenAnswerModel,
} from './bench-fixtures.mjs';

const label = process.env.BENCH_LABEL ?? 'after';
const rounds = Number(process.env.ROUNDS ?? 15);
const executeIterations = Number(process.env.EXECUTE_ITERATIONS ?? 1_000);
const turnIterations = Number(process.env.TURN_ITERATIONS ?? 100);
const subject = 'bench-user';
const secretKey = Buffer.alloc(32, 7).toString('base64');
const targets = { executeSqliteOverMemoryAt100: 1.5, runTurnSqliteOverAiSdk: 1.0 };

/**
 * Milliseconds per call of each side: every round times each side over `iterations` calls, in an
 * order that rotates from round to round; the answer is each side's median round, and the median
 * of the per-round ratios (`ratio(a, b)`), which a burst of load from elsewhere skews least.
 */
async function alternate(sides, iterations) {
  const names = Object.keys(sides);
  const perRound = Object.fromEntries(names.map((name) => [name, []]));
  // Every call gets a number of its own (turns use it for a fresh thread).
  let calls = 0;
  for (const name of names) for (let index = 0; index < 50; index += 1) await sides[name](calls++);
  for (let roundIndex = 0; roundIndex < rounds; roundIndex += 1) {
    for (let offset = 0; offset < names.length; offset += 1) {
      const name = names[(roundIndex + offset) % names.length];
      const started = performance.now();
      for (let index = 0; index < iterations; index += 1) await sides[name](calls++);
      perRound[name].push((performance.now() - started) / iterations);
    }
  }
  return {
    median: (name) => round(percentile(perRound[name], 0.5), 5),
    ratio: (over, under) =>
      round(
        percentile(
          perRound[over].map((value, index) => value / perRound[under][index]),
          0.5,
        ),
        2,
      ),
  };
}

async function seeded(connectors, home) {
  const store = openStore({ home, secretKey, env: {} });
  const memory = createInMemoryStatusSource();
  for (const [index, connector] of connectors.entries()) {
    const connection = { credentials: benchCredentials(subject, index), scopes: [] };
    await store.saveConnection(subject, { connectorId: connector.id, ...connection });
    memory.connect(subject, connector.id, connection);
  }
  return { store, memory };
}

async function executeAt(connectionCount, home) {
  const connectors = benchConnectors(connectionCount);
  const { store, memory } = await seeded(connectors, home);
  const onStore = createOrchestrator({ statusSource: store, connectors });
  const inMemory = createOrchestrator({ statusSource: memory, connectors });
  await onStore.start();
  await inMemory.start();
  const check = await onStore.execute('svc0_lookup', { query: 'x' }, { subject });
  if (!check.ok) throw new Error(`execute on the store failed: ${JSON.stringify(check)}`);
  const means = await alternate(
    {
      sqlite: () => onStore.execute('svc0_lookup', { query: 'x' }, { subject }),
      in_memory: () => inMemory.execute('svc0_lookup', { query: 'x' }, { subject }),
    },
    executeIterations,
  );
  await onStore.stop();
  await inMemory.stop();
  store.close();
  return {
    connections: connectionCount,
    sqlite_median_ms: means.median('sqlite'),
    in_memory_median_ms: means.median('in_memory'),
    ratio_sqlite_over_in_memory: means.ratio('sqlite', 'in_memory'),
  };
}

async function turns(home) {
  const connectors = benchConnectors(8);
  const { store, memory } = await seeded(connectors, home);
  const onStore = createOrchestrator({ statusSource: store, connectors });
  const inMemory = createOrchestrator({ statusSource: memory, connectors });
  await onStore.start();
  await inMemory.start();
  const memoryThreads = createInMemoryThreadStore();
  // The AI SDK loop gets the same eight tools, each answering what the connector tool answers.
  const aiTools = Object.fromEntries(
    connectors.map((connector) => [
      connector.tools[0].name,
      tool({
        description: connector.tools[0].description,
        inputSchema: lookupInput,
        execute: async (input) => ({ ok: true, data: lookupAnswer(input.query) }),
      }),
    ]),
  );
  const message = 'Find the release notes.';
  const turn = (orchestrator, statusSource, threadStore, prefix) => async (index) => {
    const result = await runTurn({
      model: toolThenAnswerModel('svc0_lookup'),
      thread: `${prefix}-${index}`,
      message,
      subject,
      orchestrator,
      connectors,
      statusSource,
      threadStore,
    });
    if (result.thread.messages.length !== 4)
      throw new Error(`turn stored ${result.thread.messages.length} messages: ${result.reply}`);
  };
  const aiSdk = async () => {
    const result = await generateText({
      model: toolThenAnswerModel('svc0_lookup'),
      tools: aiTools,
      stopWhen: stepCountIs(5),
      prompt: message,
    });
    if (result.steps.length !== 2) throw new Error('the AI SDK loop did not call the tool');
  };
  const means = await alternate(
    {
      run_turn_sqlite: turn(onStore, store, store.threads, 'sqlite'),
      run_turn_in_memory: turn(inMemory, memory, memoryThreads, 'memory'),
      ai_sdk_generate_text: aiSdk,
    },
    turnIterations,
  );
  const stored = await store.threads.load('sqlite-0');
  await onStore.stop();
  await inMemory.stop();
  store.close();
  return {
    connections: 8,
    stored_messages_per_turn: stored?.messages.length ?? 0,
    run_turn_sqlite_median_ms: means.median('run_turn_sqlite'),
    run_turn_in_memory_median_ms: means.median('run_turn_in_memory'),
    ai_sdk_median_ms: means.median('ai_sdk_generate_text'),
    ratio_sqlite_over_ai_sdk: means.ratio('run_turn_sqlite', 'ai_sdk_generate_text'),
    ratio_in_memory_over_ai_sdk: means.ratio('run_turn_in_memory', 'ai_sdk_generate_text'),
  };
}

const homes = [];
const home = () => {
  const made = mkdtempSync(join(tmpdir(), 'patchbay-hot-path-'));
  homes.push(made);
  return made;
};
try {
  const execute = [await executeAt(8, home()), await executeAt(100, home())];
  const runTurnResult = await turns(home());
  const at100 = execute.find((entry) => entry.connections === 100);
  const result = {
    benchmark: 'store-hot-path',
    label,
    node: process.version,
    date: new Date().toISOString(),
    rounds,
    execute_iterations_per_round: executeIterations,
    turn_iterations_per_round: turnIterations,
    execute,
    run_turn: runTurnResult,
    targets: {
      execute_sqlite_over_in_memory_at_100: {
        target: targets.executeSqliteOverMemoryAt100,
        measured: at100.ratio_sqlite_over_in_memory,
        pass: at100.ratio_sqlite_over_in_memory <= targets.executeSqliteOverMemoryAt100,
      },
      run_turn_sqlite_over_ai_sdk: {
        target: targets.runTurnSqliteOverAiSdk,
        measured: runTurnResult.ratio_sqlite_over_ai_sdk,
        pass: runTurnResult.ratio_sqlite_over_ai_sdk <= targets.runTurnSqliteOverAiSdk,
      },
    },
  };
  const directory = join(import.meta.dirname, '..', '..', '..', 'bench', 'results');
  mkdirSync(directory, { recursive: true });
  const file = label === 'after' ? 'store-hot-path.json' : `store-hot-path.${label}.json`;
  writeFileSync(join(directory, file), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  for (const made of homes) rmSync(made, { recursive: true, force: true });
}
