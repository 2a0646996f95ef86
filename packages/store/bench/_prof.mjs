import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrchestrator } from '@patchbay/orchestrator';
import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { openStore } from '../dist/index.js';
import { benchConnectors, benchCredentials, lookupAnswer, lookupInput } from './bench-fixtures.mjs';

const connectors = benchConnectors(8);
const subject = 'bench-user';
const store = openStore({
  home: mkdtempSync(join(tmpdir(), 'pbp-')),
  secretKey: Buffer.alloc(32, 19).toString('base64'),
  env: {},
});
await Promise.all(
  connectors.map((c, i) =>
    store.saveConnection(subject, {
      connectorId: c.id,
      credentials: benchCredentials(subject, i),
      scopes: [],
    }),
  ),
);
const orchestrator = createOrchestrator({ statusSource: store, connectors });
await orchestrator.start();
const model = () =>
  createScriptedModel((call) =>
    call.prompt.filter((e) => e.role === 'tool').length >= 1
      ? 'done.'
      : { toolCalls: [{ toolName: 'svc0_lookup', input: { query: 'release notes' } }] },
  );
let n = 0;
const one = () =>
  runTurn({
    model: model(),
    thread: `t-${n++}`,
    message: 'Find the release notes.',
    subject,
    orchestrator,
    connectors,
    statusSource: store,
    threadStore: store.threads,
    maxSteps: 3,
  });
const precomputed = z.toJSONSchema(lookupInput);
const aiTools = Object.fromEntries(
  connectors.map((c) => [
    c.tools[0].name,
    tool({
      description: c.tools[0].description,
      inputSchema: jsonSchema(precomputed),
      execute: async (input) => ({ ok: true, data: lookupAnswer(input.query) }),
    }),
  ]),
);
const ai = () =>
  generateText({
    model: model(),
    tools: aiTools,
    stopWhen: stepCountIs(3),
    prompt: 'Find the release notes.',
  });
const mode = process.argv[2] ?? 'both';
for (let i = 0; i < 300; i++) {
  await one();
  await ai();
}
const m = async (f, k) => {
  const c = process.cpuUsage();
  for (let i = 0; i < k; i++) await f();
  const u = process.cpuUsage(c);
  return (u.user + u.system) / k;
};
if (mode === 'prof') {
  for (let i = 0; i < 3000; i++) await one();
  process.exit(0);
}
const r = [];
for (let round = 0; round < 10; round++) {
  const a = await m(one, 200),
    b = await m(ai, 200);
  r.push(a / b);
  console.log(round, a.toFixed(0), b.toFixed(0), (a / b).toFixed(2));
}
r.sort((x, y) => x - y);
console.log('median ratio', r[5].toFixed(2));
process.exit(0);
