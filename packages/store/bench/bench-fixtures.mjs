// Shared by the store's hot-path and multi-process benchmarks: generated connectors whose one tool
// answers in process (a stand-in for a service, so the store's share of a turn is what is timed),
// the scripted model that calls one tool and then answers, percentiles, starting workers together,
// writing results and dropping a bench's schema.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createScriptedModel } from '@patchbay/turn/testing';
import pg from 'pg';
import { z } from 'zod';

/** The tool input every generated tool takes. */
export const lookupInput = z.object({ query: z.string().describe('What to look up') });

/** What every generated tool answers: the stand-in for a service's reply. */
export const lookupAnswer = (query) => ({ query, items: [{ id: 'R-1', title: 'Release notes' }] });

/** `count` connectors svc0…, each with one read tool `svc<i>_lookup` answered in process. */
export function benchConnectors(count) {
  return Array.from({ length: count }, (_, index) => {
    const id = `svc${index}`;
    return defineConnector({
      id,
      name: `Service ${index}`,
      description: 'A generated connector for the benchmark.',
      auth: { kind: 'bearer' },
      capabilities: ['lookup'],
      wouldEnable: ['Nothing; it is a benchmark fixture'],
      setupUrl: `https://${id}.example/connect`,
      tools: [
        defineTool({
          name: `${id}_lookup`,
          description: 'Looks something up (benchmark stand-in, answers in process).',
          input: lookupInput,
          effect: 'read',
          execute: async (input) => success(lookupAnswer(input.query)),
        }),
      ],
      verify: async () => ({ valid: true, scopes: [] }),
    });
  });
}

/** Credentials of a generated connection: a token of realistic length. */
export const benchCredentials = (subject, index) => ({
  token: `bench-${subject}-${index}-${'x'.repeat(40)}`,
});

/**
 * The scripted model of every benchmark turn: the first step calls `toolName`, the step after the
 * tool result answers in text. A fresh one per turn (it records its calls).
 */
export function toolThenAnswerModel(toolName) {
  return createScriptedModel((call) =>
    call.prompt.at(-1)?.role === 'tool'
      ? 'The lookup found the release notes.'
      : { toolCalls: [{ toolName, input: { query: 'release notes' } }] },
  );
}

/** The `fraction` percentile of numbers (nearest rank). */
export function percentile(values, fraction) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/** Rounds to `digits` decimals. */
export const round = (value, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Starts worker processes together and collects their reports: each says `ready`, all are told `go`
 * at once, each answers one JSON report line and exits. Returns the reports and the wall seconds
 * from `go` to the last report.
 */
export async function runWorkersTogether(workers) {
  for (const { lines } of workers) {
    const { value } = await lines.next();
    if (value !== 'ready') throw new Error(`a worker did not start: ${value}`);
  }
  const started = performance.now();
  for (const { child } of workers) child.stdin.write('go\n');
  const reports = await Promise.all(
    workers.map(async ({ lines, child }) => {
      const { value } = await lines.next();
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
      return JSON.parse(value);
    }),
  );
  return { reports, seconds: (performance.now() - started) / 1000 };
}

/** Writes a bench's result to bench/results/<file> at the repository root and prints it. */
export function writeBenchResult(file, result) {
  const directory = join(import.meta.dirname, '..', '..', '..', 'bench', 'results');
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, file), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

/** Drops a bench's Postgres schema (its tables, with everything in them). */
export async function dropSchema(connectionString, schema) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
