// Time to the first streamed text delta: what streamTurn adds before the model's first token reaches
// the caller, beyond the status capture. Interleaved, in one process, per call:
// - model: the scripted model's own doStream, to its first text-delta (the floor);
// - capture: captureStatus alone for the same subject and connectors (what "beyond the status
//   capture" subtracts);
// - streamTurn: a whole Patchbay turn, from the call to its first text-delta event;
// - streamText: the AI SDK's own streamText with the same model and the same tools, to its first
//   text delta (a peer: the framework's loop without Patchbay).
// Target (issue 31): streamTurn − model − capture ≤ 1 ms. Writes bench/results/stream-turn.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { captureStatus, createInMemoryStatusSource } from '@patchbay/protocol';
import { createFixtureConnector } from '@patchbay/testing';
import { measureInterleaved, spreadOf } from '@patchbay/testing/bench';
import { dynamicTool, jsonSchema, streamText } from 'ai';
import { z } from 'zod';
import { streamTurn } from '../src/index.js';
import { createScriptedModel } from '../src/testing/index.js';

const resultsFile = join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'stream-turn.json');
const subject = 'bench-user';
const reply = 'Here is what I found: two open issues, both about the login page.';

const connectors = ['tracker', 'chat', 'docs'].map((id) =>
  createFixtureConnector({
    id,
    tools: [
      defineTool({
        name: `${id}_search`,
        description: `Searches ${id}.`,
        input: z.object({ query: z.string().describe('What to look for') }),
        effect: 'read',
        execute: async (input) => success({ hits: [input.query] }),
      }),
    ],
  }),
);
const statusSource = createInMemoryStatusSource();
for (const connector of connectors) {
  statusSource.connect(subject, connector.id, { credentials: { token: `${connector.id}-bench-token-1` } });
}
const orchestrator = createOrchestrator({ statusSource, connectors });
await orchestrator.start();
const model = createScriptedModel(() => reply, { textChunkSize: 8 });
const now = () => new Date('2026-11-21T15:00:00Z');

/** Reads a stream of parts until `isDelta` says one is a text delta; the rest is read too (untimed). */
async function firstDelta<T>(stream: AsyncIterable<T>, isDelta: (part: T) => boolean): Promise<number> {
  let at = 0;
  for await (const part of stream) if (at === 0 && isDelta(part)) at = performance.now();
  return at;
}

const ttfd: Record<string, number[]> = { model: [], capture: [], streamTurn: [], streamText: [] };
const timed = (name: string, body: () => Promise<number>) => async () => {
  const started = performance.now();
  const firstAt = await body();
  ttfd[name]!.push((firstAt - started) * 1000);
};

const paths = {
  model: timed('model', async () => {
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    return firstDelta(stream, (part) => part.type === 'text-delta');
  }),
  capture: timed('capture', async () => {
    await captureStatus({ connectors, source: statusSource, subject, now });
    return performance.now();
  }),
  streamTurn: timed('streamTurn', async () =>
    firstDelta(
      streamTurn({
        model,
        thread: { id: 't', messages: [] },
        message: 'What is open on the login page?',
        subject,
        orchestrator,
        connectors,
        statusSource,
        now,
      }),
      (event) => event.type === 'text-delta',
    ),
  ),
  streamText: timed('streamText', async () => {
    const result = streamText({
      model,
      prompt: 'What is open on the login page?',
      tools: Object.fromEntries(
        connectors.flatMap((connector) =>
          connector.tools.map((tool) => [
            tool.name,
            dynamicTool({
              description: tool.description,
              inputSchema: jsonSchema(tool.inputJsonSchema as never),
              execute: async () => ({ hits: [] }),
            }),
          ]),
        ),
      ),
    });
    return firstDelta(result.fullStream, (part) => part.type === 'text-delta');
  }),
};

const figures = await measureInterleaved(paths, { warmup: 300, rounds: 10, perRound: 300 });
// Per round: the median time to the first delta of each path.
const perRound = (name: string) => {
  const samples = ttfd[name]!.slice(300); // after the warmup
  const rounds: number[] = [];
  for (let index = 0; index < 10; index += 1) {
    const slice = samples.slice(index * 300, (index + 1) * 300).sort((a, b) => a - b);
    rounds.push(slice[Math.floor(slice.length / 2)]!);
  }
  return rounds;
};
const model_ = perRound('model');
const capture = perRound('capture');
const turn = perRound('streamTurn');
const peer = perRound('streamText');
const added = turn.map((value, index) => (value - model_[index]! - capture[index]!) / 1000);
const result = {
  description:
    'Time to the first streamed text delta (µs, median per round, 10 interleaved rounds of 300 calls): the scripted model alone, captureStatus alone (3 connectors, in-memory store), streamTurn (whole turn, no tool call), and the AI SDK streamText with the same model and tools; added_ms = streamTurn − model − capture.',
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
  first_delta_us: {
    model: spreadOf(model_, 1),
    capture: spreadOf(capture, 1),
    streamTurn: spreadOf(turn, 1),
    streamText: spreadOf(peer, 1),
  },
  cpu_us_per_call: Object.fromEntries(
    Object.entries(figures).map(([name, path]) => [name, spreadOf(path.cpuUsPerRound, 1)]),
  ),
  added_ms: spreadOf(added, 3),
  target_ms: 1,
  met: spreadOf(added, 3).median <= 1,
  measured_at: new Date().toISOString(),
};
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  JSON.stringify(
    { first_delta_us: result.first_delta_us, added_ms: result.added_ms, met: result.met },
    null,
    2,
  ),
);
await orchestrator.stop();
