// Orchestrator core benchmark: what execute() adds over calling a function directly, and how the
// registry behaves with 1,000 connectors / 10,000 tools (a connector call in that registry against the
// same call in a one-connector registry, also interleaved in one run, target ≤ 1.1×). Writes
// bench/results/orchestrator-core.json at the repository root.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Connector, defineConnector, defineTool } from '@patchbay/connector';
import type { StatusSource, SubjectState } from '@patchbay/connector/ports';
import { success } from '@patchbay/envelope';
import { measureInterleaved, ratioOf, spreadOf } from '@patchbay/testing/bench';
import { z } from 'zod';
import { createOrchestrator, fromFunction, type Orchestrator } from '../dist/index.js';

const resultsPath = fileURLToPath(new URL('../../../bench/results/orchestrator-core.json', import.meta.url));
const subject = 'bench-user';
const warmup = 2_000;
const samples = 20_000;

// Stand-in status source for the benchmark: every connector connected with every scope.
function connectedStatusSource(connectorIds: string[]): StatusSource {
  const state: SubjectState = {
    connections: connectorIds.map((connectorId) => ({
      connectorId,
      credentials: { token: 'bench-token-value' },
      scopes: [],
    })),
    disabledConnectorIds: [],
    rateLimitedUntil: {},
  };
  return {
    load: async () => state,
    markRateLimited: async () => undefined,
    markInvalidCredentials: async () => undefined,
  };
}

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] as number;
}

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Times each call separately (p50/p99) and a tight loop (mean), in milliseconds. */
async function measure(call: () => Promise<unknown>) {
  for (let index = 0; index < warmup; index += 1) await call();
  const times: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  const loopStarted = performance.now();
  for (let index = 0; index < samples; index += 1) await call();
  const meanMs = (performance.now() - loopStarted) / samples;
  times.sort((a, b) => a - b);
  return {
    samples,
    p50_ms: round(percentile(times, 0.5)),
    p99_ms: round(percentile(times, 0.99)),
    mean_ms: round(meanMs, 5),
  };
}

const noop = async (input: { text: string }) => ({ echoed: input.text });

/** 1,000 connectors with 10 tools each, defined through the real defineConnector/defineTool. */
function manyConnectors(count: number, toolsEach: number): Connector[] {
  const connectors: Connector[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `svc${index}`;
    connectors.push(
      defineConnector({
        id,
        name: `Service ${index}`,
        description: 'A generated connector for the benchmark.',
        auth: { kind: 'bearer' },
        capabilities: ['echo'],
        wouldEnable: ['Nothing; it is a benchmark fixture'],
        setupUrl: `https://${id}.example/connect`,
        tools: Array.from({ length: toolsEach }, (_, toolIndex) =>
          defineTool({
            name: `${id}_tool${toolIndex}`,
            description: 'Echoes a text back for the benchmark.',
            input: z.object({ text: z.string().describe('Text to echo') }),
            effect: 'read',
            execute: async (input) => success({ echoed: input.text }),
          }),
        ),
        verify: async () => ({ valid: true, scopes: [] }),
      }),
    );
  }
  return connectors;
}

async function routingOverhead() {
  const orchestrator = createOrchestrator({ statusSource: connectedStatusSource([]) });
  orchestrator.register(
    fromFunction({
      name: 'noop_echo',
      description: 'Echoes a text back.',
      input: z.object({ text: z.string().describe('Text to echo') }),
      effect: 'read',
      execute: noop,
    }),
  );
  await orchestrator.start();
  const direct = await measure(() => noop({ text: 'hi' }));
  const routed = await measure(() => orchestrator.execute('noop_echo', { text: 'hi' }, { subject }));
  await orchestrator.stop();
  return {
    description:
      'execute() of an in-process no-op function tool (fromFunction: lookup, zod validation, approval check, deadline, envelope, metrics/log/span no-ops) against awaiting the function directly',
    direct,
    execute: routed,
    ratio_mean: round(routed.mean_ms / direct.mean_ms, 1),
    overhead_mean_ms: round(routed.mean_ms - direct.mean_ms, 5),
  };
}

async function executeConnectorTool(orchestrator: Orchestrator, name: string) {
  return measure(() => orchestrator.execute(name, { text: 'hi' }, { subject }));
}

async function registryScale() {
  const connectorCount = 1_000;
  const toolsEach = 10;
  let started = performance.now();
  const connectors = manyConnectors(connectorCount, toolsEach);
  const defineMs = performance.now() - started;
  const ids = connectors.map((connector) => connector.id);
  started = performance.now();
  const orchestrator = createOrchestrator({ statusSource: connectedStatusSource(ids), connectors });
  const buildMs = performance.now() - started;
  await orchestrator.start();
  const names = connectors.flatMap((connector) => connector.tools.map((tool) => tool.name));
  const lookups = 1_000_000;
  let found = 0;
  started = performance.now();
  for (let index = 0; index < lookups; index += 1) {
    if (orchestrator.getTool(names[(index * 7919) % names.length]!)) found += 1;
  }
  const lookupNs = ((performance.now() - started) / lookups) * 1e6;
  if (found !== lookups) throw new Error('lookup missed a tool');
  const large = await executeConnectorTool(orchestrator, names[names.length - 1]!);

  // Same status source (1,000 connections), so the difference is the registry size alone.
  const small = createOrchestrator({
    statusSource: connectedStatusSource(ids),
    connectors: [connectors[0]!],
  });
  await small.start();
  const single = await executeConnectorTool(small, 'svc0_tool9');
  // The two registries side by side in one run, round by round (the separate runs above drift
  // with the machine's load): the ratio per round, with its spread.
  const lastName = names[names.length - 1]!;
  const interleaved = await measureInterleaved(
    {
      registry_10k: () => orchestrator.execute(lastName, { text: 'hi' }, { subject }),
      registry_1: () => small.execute('svc0_tool9', { text: 'hi' }, { subject }),
    },
    { warmup: 2_000, rounds: 15, perRound: 2_000 },
  );
  await orchestrator.stop();
  await small.stop();
  const tenThousand = interleaved.registry_10k!;
  const one = interleaved.registry_1!;
  const ratio = ratioOf(tenThousand.medianUsPerRound, one.medianUsPerRound, 2);
  const cpuRatio = ratioOf(tenThousand.cpuUsPerRound, one.cpuUsPerRound, 2);
  return {
    connectors: connectorCount,
    tools: names.length,
    define_connectors_ms: round(defineMs, 1),
    registry_build_ms: round(buildMs, 1),
    lookup_mean_ns: round(lookupNs, 1),
    execute_connector_tool_in_10k_registry: large,
    execute_connector_tool_in_1_connector_registry: single,
    interleaved: {
      description:
        'execute() of a connector tool, 10,000-tool registry against a 1-connector one, measured in turns within one run (15 rounds of 2,000 calls each): per-round median wall time and CPU per call, and their per-round ratios',
      registry_10k_us: spreadOf(tenThousand.medianUsPerRound, 2),
      registry_1_us: spreadOf(one.medianUsPerRound, 2),
      registry_10k_cpu_us: spreadOf(tenThousand.cpuUsPerRound, 2),
      registry_1_cpu_us: spreadOf(one.cpuUsPerRound, 2),
      ratio_wall: ratio,
      ratio_cpu: cpuRatio,
      target: 1.1,
      met: ratio.median <= 1.1,
    },
  };
}

async function main() {
  const routing = await routingOverhead();
  const registry = await registryScale();
  const result = {
    benchmark: 'orchestrator-core',
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: new Date().toISOString(),
    routing_overhead: routing,
    registry,
  };
  await mkdir(dirname(resultsPath), { recursive: true });
  await writeFile(resultsPath, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
