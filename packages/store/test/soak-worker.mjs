// One process of the Postgres soak (src/postgres-soak.test.ts): its own gate (orchestrator) on the
// Postgres store, two connectors whose tools call the counting service on loopback (the test
// process), and commands as JSON lines on stdin, each answered by one JSON line on stdout with the
// same `tag`. Commands run concurrently (the gate calls go on while proposals are decided):
//   seed          a connection of every subject to both connectors
//   load          gate calls of lookup_find, subjects in turn, `lanes` in flight, until `stop`; each
//                 call's item is `<subject>@<the moment it entered the gate>`
//   stop          ends the load; answers what the gate returned (ok / disabled_by_admin / other)
//   propose       `count` destructive calls (ops_delete), each a proposal; answers their ids
//   approve       orchestrator.approve of each id
//   execute       orchestrator.executeProposal of each id, all at once (racing the other processes)
//   approveAndExecute  the same with approveAndExecute
//   flip          `times` × (disable lookup for everyone, hold `disabledMs`; enable, hold `enabledMs`),
//                 each change reported to the service once committed (POST /policy): a disable
//                 stamped when its commit was acknowledged, an enable when it was asked for, so
//                 between the two stamps the connector is disabled for certain
// PATCHBAY_SOAK_STORE_MODULE runs the soak on another build of the store (a copy with a guard removed,
// to show that the test catches its absence); the default is the package's build.
import { createInterface } from 'node:readline';
import { setTimeout as hold } from 'node:timers/promises';
import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { z } from 'zod';

const [url, secretKey, service, index] = process.argv.slice(2);
const { openStore } = await import(process.env.PATCHBAY_SOAK_STORE_MODULE || '../dist/index.js');
const worker = Number(index);
const store = openStore({ url, secretKey, env: {} });

/** Tells the counting service that a tool ran: the service, not this process, counts. */
async function report(path, body) {
  const response = await fetch(`${service}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, worker }),
  });
  if (!response.ok) throw new Error(`the counting service answered ${response.status}`);
  await response.text();
}

const tool = (id, name, effect, path) =>
  defineConnector({
    id,
    name: id,
    description: 'A soak-test connector whose tool calls the counting service.',
    auth: { kind: 'bearer' },
    capabilities: [id],
    wouldEnable: ['Nothing; it is a test fixture'],
    setupUrl: `https://${id}.example/connect`,
    tools: [
      defineTool({
        name,
        description: 'Calls the counting service.',
        input: z.object({ item: z.string().describe('Item id') }),
        effect,
        execute: async ({ item }) => {
          await report(path, { item });
          return success({ item });
        },
      }),
    ],
    verify: async () => ({ valid: true, scopes: [] }),
  });

const connectors = [
  tool('lookup', 'lookup_find', 'read', '/lookup'),
  tool('ops', 'ops_delete', 'destructive', '/run'),
];
const orchestrator = createOrchestrator({
  statusSource: store,
  connectors,
  proposals: store.proposals,
  audit: store.audit,
});
await orchestrator.start();
const subjects = JSON.parse(process.env.SOAK_SUBJECTS ?? '["ana"]');
// Warm: the status of every subject kept, the LISTEN connection in place, before "ready".
for (const subject of subjects) await store.loadConnectors(subject, ['lookup']);
await store.listening();
process.stdout.write('ready\n');

/** Milliseconds on the clock every process of the machine shares (sub-millisecond). */
const now = () => performance.timeOrigin + performance.now();
const answer = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
let loading = false;
let loaded;
const outcome = (envelope) => (envelope.ok ? 'ran' : envelope.error_type);
const settle = async (promise) => {
  try {
    return outcome(await promise);
  } catch (error) {
    return error?.code ?? String(error);
  }
};

async function load(lanes) {
  loading = true;
  const counts = {};
  let next = worker;
  const lane = async () => {
    while (loading) {
      const subject = subjects[next++ % subjects.length];
      // The call carries the moment it entered the gate (this machine's clock), for the service.
      const item = `${subject}@${now()}`;
      const envelope = await orchestrator.execute('lookup_find', { item }, { subject });
      const key = envelope.ok ? 'ok' : envelope.error_type;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return counts;
}

const commands = {
  seed: async () => {
    for (const subject of subjects) {
      for (const connectorId of ['lookup', 'ops']) {
        await store.saveConnection(subject, { connectorId, credentials: { token: 't' }, scopes: [] });
      }
    }
    return {};
  },
  load: ({ lanes }) => {
    loaded = load(lanes);
    return {};
  },
  stop: async () => {
    loading = false;
    return { counts: await loaded };
  },
  propose: async ({ count, prefix, subject }) => {
    const ids = [];
    for (let item = 0; item < count; item += 1) {
      const envelope = await orchestrator.execute('ops_delete', { item: `${prefix}-${item}` }, { subject });
      if (envelope.ok || !envelope.proposal_id)
        throw new Error(`expected a proposal: ${JSON.stringify(envelope)}`);
      ids.push(envelope.proposal_id);
    }
    return { ids };
  },
  approve: async ({ ids }) => ({
    outcomes: await Promise.all(
      ids.map((id) =>
        orchestrator.approve(id, { decidedBy: `worker-${worker}` }).then(
          () => 'approved',
          (error) => error?.code ?? String(error),
        ),
      ),
    ),
  }),
  execute: async ({ ids }) => ({
    outcomes: await Promise.all(ids.map((id) => settle(orchestrator.executeProposal(id)))),
  }),
  approveAndExecute: async ({ ids }) => ({
    outcomes: await Promise.all(
      ids.map((id) => settle(orchestrator.approveAndExecute(id, { decidedBy: `worker-${worker}` }))),
    ),
  }),
  flip: async ({ times, disabledMs, enabledMs }) => {
    for (let time = 0; time < times; time += 1) {
      await store.disableConnector('lookup');
      await report('/policy', { item: `disabled@${now()}` });
      await hold(disabledMs);
      // Enabled from the moment it is asked for (the commit may be seen before it is acknowledged).
      const enabling = now();
      await store.enableConnector('lookup');
      await report('/policy', { item: `enabled@${enabling}` });
      await hold(enabledMs);
    }
    return {};
  },
};

for await (const line of createInterface({ input: process.stdin })) {
  const { op, tag, ...args } = JSON.parse(line);
  if (op === 'quit') break;
  Promise.resolve()
    .then(() => commands[op](args))
    .then(
      (result) => answer({ tag, ...result }),
      (error) => answer({ tag, error: String(error?.stack ?? error) }),
    );
}
await orchestrator.stop();
await store.close();
