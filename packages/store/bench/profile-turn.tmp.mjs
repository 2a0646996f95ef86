// temporary: count pg round trips per turn
import pg from 'pg';
import { createOrchestrator } from '@patchbay/orchestrator';
import { runTurn } from '@patchbay/turn';
import { openStore } from '../dist/index.js';
import { benchConnectors, benchCredentials, toolThenAnswerModel } from './bench-fixtures.mjs';
const counts = new Map();
const orig = pg.Client.prototype.query;
let log = false;
pg.Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : config.text;
  if (log) counts.set(text.replace(/\s+/g,' ').slice(0, 90), (counts.get(text.replace(/\s+/g,' ').slice(0, 90)) ?? 0) + 1);
  return orig.call(this, config, ...rest);
};
const schema = `pb_prof_${process.pid}`;
const url = `postgres://postgres@127.0.0.1:5432/test?schema=${schema}`;
const env = { ...process.env, PATCHBAY_SECRET_KEY: Buffer.alloc(32, 11).toString('base64') };
const store = openStore({ url, env, home: '/tmp/pgscale' });
const connectors = benchConnectors(8);
for (const [i, c] of connectors.entries()) await store.saveConnection('s', { connectorId: c.id, credentials: benchCredentials('s', i), scopes: [] });
const orchestrator = createOrchestrator({ statusSource: store, connectors });
await orchestrator.start();
const N = 20;
log = true;
for (let t = 0; t < N; t++) {
  await runTurn({ model: toolThenAnswerModel('svc0_lookup'), thread: `th-${t % 5}`, message: 'Find the release notes.', subject: 's', orchestrator, connectors, statusSource: store, threadStore: store.threads });
}
log = false;
for (const [k, v] of counts) console.log((v / N).toFixed(2), k);
await orchestrator.stop();
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' }); await c.connect(); await c.query(`DROP SCHEMA ${schema} CASCADE`); await c.end();
await store.close();
