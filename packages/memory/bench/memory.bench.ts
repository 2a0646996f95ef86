// Memory benchmark (issue 15): per message of a 120-message session, model calls, input tokens and
// tool calls, and the input of every flush in bounded and full mode; add_entry and search_memories
// latency through the in-process MCP server at 10,000 and 100,000 entries.
// Writes bench/results/memory.json at the repository root.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openStore } from '@patchbay/store';
import { createScriptedModel } from '@patchbay/turn/testing';
// The store package's test server helpers, as the pg-boss tests use them.
import { freshSchema, postgresAvailable, postgresUrl } from '../../store/test/postgres-server.js';
import {
  builtInPromptLoader,
  createMemoryAgent,
  createMemoryInvoker,
  createMemoryServer,
} from '../src/index.js';
import { diligentModel, offeredTool, openMemoryWorld, removeHome, systemPrompt } from '../src/test-kit.js';

const resultsPath = fileURLToPath(new URL('../../../bench/results/memory.json', import.meta.url));
// No tokenizer dependency here: input tokens are estimated as characters / 4 of the prompt sent.
const tokens = (characters: number) => Math.ceil(characters / 4);

async function session(mode: 'bounded' | 'full', messages: number) {
  const world = await openMemoryWorld();
  const model = createScriptedModel(diligentModel);
  const agent = createMemoryAgent({
    model,
    orchestrator: world.orchestrator,
    subject: 'alice',
    ...world.ids,
    checkpointer: world.store,
    prompts: builtInPromptLoader,
    contextInput: mode,
  });
  const invoker = createMemoryInvoker({ agent, threadId: 'bench', checkpointer: world.store });
  await invoker.startSession();
  let toolCalls = 0;
  for (let index = 1; index <= messages; index += 1) {
    const result = await invoker.processMessage(
      index % 2 ? 'user' : 'assistant',
      `Message ${index}: a sentence of ordinary length about the project, its dates and decisions.`,
    );
    toolCalls += result.toolCalls.length;
  }
  const promptCharacters = (call: (typeof model.calls)[number]) =>
    systemPrompt(call).length + 40; /* the short user instruction */
  const flushes = model.calls
    .filter((call) => offeredTool(call) === 'put_context')
    .map((call) => tokens(promptCharacters(call)));
  const inputTokens = model.calls.reduce((sum, call) => sum + tokens(promptCharacters(call)), 0);
  await world.close();
  removeHome(world.home);
  return {
    mode,
    messages,
    perMessage: {
      modelCalls: model.calls.length / messages,
      estimatedInputTokens: Math.round(inputTokens / messages),
      toolCalls: toolCalls / messages,
    },
    flushEstimatedInputTokens: flushes,
  };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!.toFixed(3));
}

async function latency(backend: 'sqlite' | 'postgres', sizes: number[], samples: number) {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-memory-bench-'));
  // The Postgres rows in a schema of their own on the test server, dropped afterwards.
  const schema = backend === 'postgres' ? freshSchema('memory_bench') : undefined;
  const store = openStore({
    home,
    secretKey: Buffer.alloc(32, 1).toString('base64'),
    env: {},
    ...(schema ? { url: schema.url } : {}),
  });
  const memory = store.memory;
  const vault = await memory.createVault('alice', { title: 'bench' });
  const record = await memory.createMemory('alice', vault.id, { title: 'bench', memoryType: 'CHAT' });
  const server = createMemoryServer({ memory, subject: 'alice' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  const words = [
    'cold',
    'start',
    'lyon',
    'invoice',
    'deadline',
    'dentist',
    'recommender',
    'budget',
    'tea',
    'friday',
  ];
  const text = (index: number) =>
    `Entry ${index} mentions ${words[index % 10]} and ${words[(index * 7) % 10]} among other ordinary words of a chat message.`;
  let filled = 0;
  const results = [];
  for (const size of sizes) {
    // Filled through the store (not timed); only the sampled calls go through MCP.
    for (; filled < size; filled += 1) {
      await memory.addEntry('alice', vault.id, record.id, {
        rawEntry: text(filled),
        summary: `Summary of entry ${filled}`,
      });
    }
    const addTimes: number[] = [];
    const searchTimes: number[] = [];
    for (let sample = 0; sample < samples; sample += 1) {
      let started = performance.now();
      await client.callTool({
        name: 'add_entry',
        arguments: {
          vault_id: vault.id,
          memory_id: record.id,
          raw_entry: text(filled),
          summary: 'sampled entry',
        },
      });
      addTimes.push(performance.now() - started);
      filled += 1;
      started = performance.now();
      await client.callTool({
        name: 'search_memories',
        arguments: {
          memory_id: record.id,
          vault_id: vault.id,
          query: `${words[sample % 10]} ${words[(sample + 3) % 10]}`,
        },
      });
      searchTimes.push(performance.now() - started);
    }
    results.push({
      backend,
      entries: size,
      addEntryMs: { p50: percentile(addTimes, 0.5), p95: percentile(addTimes, 0.95) },
      searchMemoriesMs: { p50: percentile(searchTimes, 0.5), p95: percentile(searchTimes, 0.95) },
    });
  }
  await client.close();
  await store.close();
  await schema?.drop();
  rmSync(home, { recursive: true, force: true });
  return results;
}

const sessions = [await session('bounded', 120), await session('full', 120)];
const latencies = [
  ...(await latency('sqlite', [10_000, 100_000], 100)),
  // Postgres text search (GIN-indexed tsvector, ts_rank) beside SQLite's FTS5 on the same data.
  ...(postgresAvailable ? await latency('postgres', [10_000, 100_000], 100) : []),
];
if (!latencies.some((row) => row.backend === 'postgres'))
  console.warn(`no PostgreSQL at ${postgresUrl}: the Postgres latency rows are left out`);
const report = {
  benchmark: 'memory',
  generatedAt: new Date().toISOString(),
  node: process.version,
  method:
    'Sessions: the invoker (flush every 6th message) over 120 messages with a scripted model, through a real orchestrator and the in-process MCP memory server on SQLite; input tokens estimated as prompt characters / 4. Latency: add_entry and search_memories (top 10, two words, each word in a fifth of the entries) called through an SDK client on the in-process server, 100 samples each after filling the memory to the given size, on SQLite (FTS5, bm25) and on Postgres (tsvector, ts_rank) when a server answers.',
  sessions,
  latency: latencies,
};
mkdirSync(dirname(resultsPath), { recursive: true });
writeFileSync(resultsPath, `${JSON.stringify(report, null, 2)}\n`);
console.log(
  JSON.stringify(
    {
      sessions: sessions.map(({ flushEstimatedInputTokens, ...rest }) => ({
        ...rest,
        firstFlush: flushEstimatedInputTokens[0],
        lastFlush: flushEstimatedInputTokens.at(-1),
      })),
      latency: latencies,
    },
    null,
    2,
  ),
);
