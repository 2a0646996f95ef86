// A whole turn on each store against the AI SDK's own loop (issue 32): runTurn (status capture, the
// tool call through the gate, the thread appended to the store) on Postgres and on SQLite, against
// generateText with the same eight tools given precomputed JSON schemas (jsonSchema of the AI SDK, the
// schema computed once, as a host that caches its tool definitions does), the same scripted model.
// Then turns of 1, 5, 10 and 20 tool calls (one call a step) on each store: the time per call, which
// should stay flat as a turn grows (the prompt is mapped incrementally, the append is one statement).
// All paths interleaved round by round in one run (measureInterleaved of @patchbay/testing/bench);
// ratios are per round, with their range. Results in bench/results/store-turn.json.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrchestrator } from '@patchbay/orchestrator';
import { measureInterleaved, ratioOf, spreadOf } from '@patchbay/testing/bench';
import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { openStore } from '../dist/index.js';
import {
  benchConnectors,
  benchCredentials,
  dropSchema,
  lookupAnswer,
  lookupInput,
  round,
  writeBenchResult,
} from './bench-fixtures.mjs';

const rounds = Number(process.env.ROUNDS ?? 15);
const perRound = Number(process.env.PER_ROUND ?? 30);
const callCounts = [1, 5, 10, 20];
const subject = 'bench-user';
const secretKey = Buffer.alloc(32, 19).toString('base64');
const baseUrl = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `pb_bench_turn_${process.pid}_${randomBytes(3).toString('hex')}`;
const targets = { postgresOverAiSdk: 1.5, sqliteOverAiSdk: 1.2, perCallAt20OverAt1: 1.2 };

const loadAtStart = os.loadavg().map((value) => round(value, 2));
const url = new URL(baseUrl);
url.searchParams.set('schema', schema);
const home = mkdtempSync(join(tmpdir(), 'patchbay-turn-bench-'));
const connectors = benchConnectors(8);
const message = 'Find the release notes.';

/** The scripted model of a `calls`-call turn: one tool call a step until `calls` results are in. */
const modelFor = (calls) =>
  createScriptedModel((call) =>
    call.prompt.filter((entry) => entry.role === 'tool').length >= calls
      ? 'The lookup found the release notes.'
      : { toolCalls: [{ toolName: 'svc0_lookup', input: { query: 'release notes' } }] },
  );

// The AI SDK side: the same tools, their JSON schema computed once, each answering what the
// connector tool answers.
const precomputed = z.toJSONSchema(lookupInput);
const aiTools = Object.fromEntries(
  connectors.map((connector) => [
    connector.tools[0].name,
    tool({
      description: connector.tools[0].description,
      inputSchema: jsonSchema(precomputed),
      execute: async (input) => ({ ok: true, data: lookupAnswer(input.query) }),
    }),
  ]),
);
const aiSdk = (calls) => async () => {
  const result = await generateText({
    model: modelFor(calls),
    tools: aiTools,
    stopWhen: stepCountIs(calls + 2),
    prompt: message,
  });
  if (result.steps.length !== calls + 1) throw new Error('the AI SDK loop did not make its calls');
};

async function seeded(store) {
  await Promise.all(
    connectors.map((connector, index) =>
      store.saveConnection(subject, {
        connectorId: connector.id,
        credentials: benchCredentials(subject, index),
        scopes: [],
      }),
    ),
  );
  return store;
}

let threads = 0;
const turn = (orchestrator, store, calls) => async () => {
  threads += 1;
  const result = await runTurn({
    model: modelFor(calls),
    thread: `bench-${threads}`,
    message,
    subject,
    orchestrator,
    connectors,
    statusSource: store,
    threadStore: store.threads,
    maxSteps: calls + 2,
  });
  // user, then per call the assistant's call and its result, then the reply
  if (result.thread.messages.length !== 2 * calls + 2) {
    throw new Error(`a ${calls}-call turn stored ${result.thread.messages.length} messages: ${result.reply}`);
  }
};

const stores = [];
try {
  const sqlite = await seeded(openStore({ home, secretKey, env: {} }));
  stores.push(sqlite);
  const postgres = await seeded(openStore({ url: url.toString(), home, secretKey, env: {} }));
  stores.push(postgres);
  const paths = { ai_sdk_1: aiSdk(1), ai_sdk_20: aiSdk(20) };
  for (const [name, store] of Object.entries({ sqlite, postgres })) {
    const orchestrator = createOrchestrator({ statusSource: store, connectors });
    await orchestrator.start();
    for (const calls of callCounts) paths[`${name}_${calls}`] = turn(orchestrator, store, calls);
  }
  await postgres.load(subject); // starts listening
  await postgres.listening();
  const figures = await measureInterleaved(paths, { warmup: 5, rounds, perRound });
  const wall = (name) => figures[name].medianUsPerRound;
  const describePath = (name) => ({
    ms_per_turn: spreadOf(
      wall(name).map((value) => value / 1000),
      3,
    ),
    cpu_ms_per_turn: spreadOf(
      figures[name].cpuUsPerRound.map((value) => value / 1000),
      3,
    ),
  });
  const cpu = (name) => figures[name].cpuUsPerRound;
  const perCall = (name, calls, of = wall) => of(name).map((value) => value / calls);
  const compared = (of) => ({
    postgres_1_over_ai_sdk_1: ratioOf(of('postgres_1'), of('ai_sdk_1'), 2),
    sqlite_1_over_ai_sdk_1: ratioOf(of('sqlite_1'), of('ai_sdk_1'), 2),
    postgres_1_over_sqlite_1: ratioOf(of('postgres_1'), of('sqlite_1'), 2),
    postgres_20_over_ai_sdk_20: ratioOf(of('postgres_20'), of('ai_sdk_20'), 2),
    sqlite_20_over_ai_sdk_20: ratioOf(of('sqlite_20'), of('ai_sdk_20'), 2),
  });
  // Wall time: what a user waits for; on a loaded machine a Postgres round trip waits to be
  // scheduled twice, so the process CPU time a turn costs is given beside it.
  const ratios = compared(wall);
  const cpuRatios = compared(cpu);
  // Time per call of a k-call turn over that of a 1-call turn, per round: flat is 1 or below (a
  // turn's fixed cost — the history load, the capture, the append — is shared by more calls).
  const perCallGrowth = Object.fromEntries(
    ['sqlite', 'postgres'].map((name) => [
      name,
      Object.fromEntries(
        callCounts.map((calls) => [
          `at_${calls}`,
          {
            ms_per_call: spreadOf(
              perCall(`${name}_${calls}`, calls).map((value) => value / 1000),
              3,
            ),
            over_at_1: ratioOf(perCall(`${name}_${calls}`, calls), perCall(`${name}_1`, 1), 2),
            cpu_ms_per_call: spreadOf(
              perCall(`${name}_${calls}`, calls, cpu).map((value) => value / 1000),
              3,
            ),
            cpu_over_at_1: ratioOf(perCall(`${name}_${calls}`, calls, cpu), perCall(`${name}_1`, 1, cpu), 2),
          },
        ]),
      ),
    ]),
  );
  // And from 10 to 20 calls, where a quadratic cost would show most.
  for (const name of ['sqlite', 'postgres']) {
    perCallGrowth[name].at_20_over_at_10 = ratioOf(perCall(`${name}_20`, 20), perCall(`${name}_10`, 10), 2);
    perCallGrowth[name].cpu_at_20_over_at_10 = ratioOf(
      perCall(`${name}_20`, 20, cpu),
      perCall(`${name}_10`, 10, cpu),
      2,
    );
  }
  const result = {
    benchmark: 'store-turn',
    node: process.version,
    cores: os.availableParallelism(),
    date: new Date().toISOString(),
    commit: process.env.BENCH_COMMIT ?? null,
    rounds,
    turns_per_round: perRound,
    description:
      'runTurn with the scripted model (one tool call a step; 8 connectors connected) on Postgres (defaults: status cache, thread appends committed asynchronously) and SQLite, against generateText with the same tools given precomputed JSON schemas; paths interleaved round by round; ratios per round as {median,min,max}: ratios of the median wall time of a turn, cpu_ratios of the process CPU time a turn costs (the Postgres server is another process, not counted)',
    paths: Object.fromEntries(Object.keys(figures).map((name) => [name, describePath(name)])),
    ratios,
    cpu_ratios: cpuRatios,
    per_call: perCallGrowth,
    targets: {
      postgres_1_over_ai_sdk_at_most: targets.postgresOverAiSdk,
      postgres_met: ratios.postgres_1_over_ai_sdk_1.median <= targets.postgresOverAiSdk,
      postgres_cpu_met: cpuRatios.postgres_1_over_ai_sdk_1.median <= targets.postgresOverAiSdk,
      sqlite_1_over_ai_sdk_at_most: targets.sqliteOverAiSdk,
      sqlite_met: ratios.sqlite_1_over_ai_sdk_1.median <= targets.sqliteOverAiSdk,
      sqlite_cpu_met: cpuRatios.sqlite_1_over_ai_sdk_1.median <= targets.sqliteOverAiSdk,
      per_call_at_20_over_at_1_at_most: targets.perCallAt20OverAt1,
      // Flat: 20 calls cost no more per call than 1, nor than 10 (where growth would show).
      flat_met: ['sqlite', 'postgres'].every(
        (name) =>
          perCallGrowth[name].at_20.over_at_1.median <= targets.perCallAt20OverAt1 &&
          perCallGrowth[name].at_20_over_at_10.median <= targets.perCallAt20OverAt1,
      ),
    },
    load_average_at_start: loadAtStart,
    load_average_at_end: os.loadavg().map((value) => round(value, 2)),
  };
  writeBenchResult('store-turn.json', result);
} finally {
  for (const store of stores) await store.close();
  rmSync(home, { recursive: true, force: true });
  await dropSchema(baseUrl, schema);
}
