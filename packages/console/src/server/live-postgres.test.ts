import { randomBytes } from 'node:crypto';
import { openStore, type PatchbayStore } from '@patchbay/store';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveFeed } from './live-feed.js';

// The console's live feed on Postgres, where change notifications come by LISTEN/NOTIFY from any
// process. The server is the one every development machine and CI runs (127.0.0.1:5432, trust
// authentication, database `test`), or PATCHBAY_TEST_DATABASE_URL; without one the test is skipped,
// except in CI.
const serverUrl = process.env.PATCHBAY_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    if (process.env.CI === 'true') throw new Error(`CI=true but no PostgreSQL answers at ${serverUrl}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const available = await reachable();

describe.skipIf(!available)('the live feed on Postgres', () => {
  const schema = `pb_console_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(serverUrl);
  url.searchParams.set('schema', schema);
  const secretKey = randomBytes(32);
  let watching: PatchbayStore;
  let writing: PatchbayStore;

  beforeAll(() => {
    watching = openStore({ url: url.toString(), secretKey, env: {} });
    writing = openStore({ url: url.toString(), secretKey, env: {} });
  });

  afterAll(async () => {
    await watching?.close();
    await writing?.close();
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });

  it('hears a policy change and a new audit entry written by another store', async () => {
    const feed = new LiveFeed(watching, 50);
    const heard: string[] = [];
    const stream = {
      writeHead: () => stream,
      write: (text: string) => {
        heard.push(text);
        return true;
      },
      on: () => stream,
      end: () => undefined,
    };
    await feed.start();
    try {
      feed.attach(stream as never);
      await writing.disableConnector('github', 'alice');
      await writing.audit.append({ event: 'connector_disabled', connector: 'github', subject: 'alice' });
      await expect
        .poll(() => heard.join(''), { timeout: 20_000 })
        .toMatch(/event: change\ndata: \{"type":"change","topic":"connectors","subject":"alice"\}/);
      await expect
        .poll(() => heard.join(''), { timeout: 20_000 })
        .toMatch(/event: audit\ndata: .*"connector_disabled"/);
      expect(feed.auditRecords().map((record) => record.entry.event)).toEqual(['connector_disabled']);
    } finally {
      feed.stop();
    }
  });
});
