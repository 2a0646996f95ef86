import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { adminQuery, describePostgres, freshSchema, postgresUrl } from '../test/postgres-server.js';
import { openPostgresStore } from './open-postgres-store.js';
import { PostgresAuditLog } from './postgres-audit-log.js';
import { PostgresHandle } from './postgres-handle.js';

// Issue 32 item 1: the gate's per-connector read is served from the per-process status cache on
// Postgres, kept exact by LISTEN/NOTIFY. What must not happen: a gate call made after another
// process's change was announced here runs on the state from before it.

const secretKey = Buffer.alloc(32, 5).toString('base64');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function schema() {
  const fresh = freshSchema('cache');
  cleanups.push(fresh.drop);
  return fresh;
}

async function open(url: string, options: { statusCache?: boolean } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-pg-cache-'));
  const store = await openPostgresStore({ url, home, env: {}, secretKey, ...options });
  cleanups.push(async () => {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  });
  return store;
}

const runs = { count: 0 };

const lookup = defineConnector({
  id: 'lookup',
  name: 'Lookup',
  description: 'A test connector.',
  auth: { kind: 'bearer' },
  capabilities: ['lookup'],
  wouldEnable: ['Lookups'],
  setupUrl: 'https://lookup.example/connect',
  tools: [
    defineTool({
      name: 'lookup_find',
      description: 'Finds something.',
      input: z.object({ query: z.string().describe('What to find') }),
      effect: 'read',
      execute: async () => {
        runs.count += 1;
        return success({ found: true });
      },
    }),
  ],
  verify: async () => ({ valid: true, scopes: [] }),
});

/** Another process on the same database, writing admin rules on request (test/policy-flipper.mjs). */
function flipper(url: string) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [join(import.meta.dirname, '..', 'test', 'policy-flipper.mjs'), url, secretKey],
    { stdio: 'pipe' },
  );
  const acknowledged: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', () => acknowledged.shift()?.());
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  cleanups.push(async () => {
    child.stdin.end('quit\n');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  return {
    send: (line: string) =>
      new Promise<void>((resolve) => {
        acknowledged.push(resolve);
        child.stdin.write(`${line}\n`);
      }),
    errors: () => errors,
  };
}

describePostgres('the Postgres status cache', () => {
  it("serves the gate's per-connector reads from memory while listening, and its own writes at once", async () => {
    const { url, schema: name } = schema();
    const store = await open(url);
    const uncached = await open(url, { statusCache: false });
    await store.saveConnection('ana', { connectorId: 'lookup', credentials: { token: 't' }, scopes: [] });
    await store.loadConnectors('ana', ['lookup']); // starts listening
    await store.listening();
    // A gate-style read alone fills the cache (no whole-subject load before it).
    await store.loadConnectors('ana', ['lookup']);
    // A write that announces nothing (triggers off for its session): a read from memory cannot see it.
    await adminQuery(
      name,
      `SET session_replication_role = replica; UPDATE connections SET scopes = '["admin"]' WHERE subject = 'ana'`,
    );
    expect((await store.loadConnectors('ana', ['lookup'])).connections[0]?.scopes).toEqual([]);
    // The MCP agent's admin switch is a per-connector read of the agent id: from memory too.
    expect((await store.loadConnectors('ana', ['some-server'])).disabledConnectorIds).toEqual([]);
    expect((await uncached.loadConnectors('ana', ['lookup'])).connections[0]?.scopes).toEqual(['admin']);
    // Read-your-writes: this process's own change is seen by the next read, without an announcement.
    await store.disableConnector('some-server', 'ana');
    expect((await store.loadConnectors('ana', ['some-server'])).disabledConnectorIds).toEqual([
      'some-server',
    ]);
    expect((await store.loadConnectors('ana', ['lookup'])).connections[0]?.scopes).toEqual(['admin']);
  });

  it("answers a gate call made right after another process's change is heard with the changed state, every time", async () => {
    const { url } = schema();
    const store = await open(url);
    await store.saveConnection('ana', { connectorId: 'lookup', credentials: { token: 't' }, scopes: [] });
    const orchestrator = createOrchestrator({ statusSource: store, connectors: [lookup] });
    await orchestrator.start();
    cleanups.push(async () => {
      await orchestrator.stop();
    });
    expect(await orchestrator.execute('lookup_find', { query: 'x' }, { subject: 'ana' })).toMatchObject({
      ok: true,
    });
    await store.listening();
    const other = flipper(url);
    runs.count = 0;
    const stale: string[] = [];
    let ranWhileDisabled = 0;
    const rounds = 12;
    for (let round = 0; round < rounds; round += 1) {
      const disable = round % 2 === 0;
      // Warm: the state before the change is in memory when the change arrives.
      const before = await orchestrator.execute('lookup_find', { query: 'x' }, { subject: 'ana' });
      // Before a disable it runs; before an enable it is refused.
      expect(before.ok).toBe(disable);
      const heard = new Promise<Awaited<ReturnType<typeof orchestrator.execute>>>((resolve, reject) => {
        const stop = store.subscribe((change) => {
          if (change.kind !== 'policy') return;
          stop();
          // The gate call starts in the same tick the announcement is heard.
          const runsBefore = runs.count;
          orchestrator.execute('lookup_find', { query: 'x' }, { subject: 'ana' }).then((envelope) => {
            if (disable) ranWhileDisabled += runs.count - runsBefore;
            resolve(envelope);
          }, reject);
        });
      });
      await other.send(`${disable ? 'disable' : 'enable'} lookup ana`);
      const envelope = await heard;
      const expected = disable ? 'disabled_by_admin' : 'ok';
      const got = envelope.ok ? 'ok' : envelope.error_type;
      if (got !== expected) stale.push(`round ${round}: ${got}, expected ${expected}`);
    }
    expect(other.errors()).toBe('');
    expect(stale).toEqual([]);
    expect(ranWhileDisabled).toBe(0);
  }, 60_000);
});

describePostgres('the batched Postgres audit log', () => {
  /** A handle that counts the statements it sends. */
  async function countingHandle(name: string) {
    const pool = new pg.Pool({ connectionString: postgresUrl, options: `-c search_path=${name}` });
    cleanups.push(() => pool.end());
    const handle = new PostgresHandle(Promise.resolve(pool), 'test', name);
    const statements: string[] = [];
    const query = handle.query.bind(handle);
    handle.query = (sql, values, statement) => {
      statements.push(statement ?? sql);
      return query(sql, values, statement);
    };
    return { handle, statements };
  }

  it('writes appends made together in one statement, in append order, numbered without gaps', async () => {
    const { url, schema: name } = schema();
    await open(url); // migrates the schema
    const { handle, statements } = await countingHandle(name);
    const audit = new PostgresAuditLog(handle);
    expect(audit.synchronous).toBe(false);
    await Promise.all(
      Array.from({ length: 100 }, (_, index) => audit.append({ event: 'tool_called', index })),
    );
    expect(statements).toEqual(['patchbay_audit_batch']);
    const listed = await audit.list({ limit: 200 });
    expect(listed.map((record) => record.entry.index)).toEqual(
      Array.from({ length: 100 }, (_, index) => index),
    );
    expect(listed.map((record) => record.seq)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
  });

  it('commits a batch without waiting for the WAL flush, and a synchronous log as the server is configured', async () => {
    const { url, schema: name } = schema();
    await open(url);
    // The batch statement's own setting, read back inside a transaction that runs it.
    const client = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${name}` });
    await client.connect();
    cleanups.push(() => client.end());
    const { handle, statements } = await countingHandle(name);
    await new PostgresAuditLog(handle).append({ event: 'probe' });
    const batchText = `WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
             INSERT INTO audit (at, entry)
             SELECT item.at, item.entry
               FROM relaxed, unnest($1::text[], $2::text[]) WITH ORDINALITY AS item(at, entry, position)
              ORDER BY item.position`;
    await client.query('BEGIN');
    await client.query(batchText, [['now'], ['{}']]);
    const { rows } = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
    await client.query('ROLLBACK');
    expect(rows[0]?.synchronous_commit).toBe('off');
    const synchronous = new PostgresAuditLog(handle, 'synchronous');
    expect(synchronous.synchronous).toBe(true);
    await synchronous.append({ event: 'durable' });
    expect(statements).toEqual(['patchbay_audit_batch', 'patchbay_audit_append']);
  });

  it('writes appends nobody waited for before the store closes, and takes the mode from the environment', async () => {
    const { url } = schema();
    const home = mkdtempSync(join(tmpdir(), 'patchbay-pg-audit-'));
    cleanups.push(async () => rmSync(home, { recursive: true, force: true }));
    const writer = await openPostgresStore({ url, home, env: {}, secretKey });
    for (let index = 0; index < 25; index += 1) void writer.audit.append({ event: 'unawaited', index });
    await writer.close();
    const reader = await open(url);
    expect((await reader.audit.list({ limit: 100 })).map((record) => record.entry.index)).toEqual(
      Array.from({ length: 25 }, (_, index) => index),
    );
    const strict = await openPostgresStore({
      url,
      home,
      secretKey,
      env: { PATCHBAY_AUDIT_COMMIT: 'synchronous' },
    });
    expect(strict.audit.synchronous).toBe(true);
    await strict.close();
    await expect(
      openPostgresStore({ url, home, secretKey, env: { PATCHBAY_AUDIT_COMMIT: 'sometimes' } }),
    ).rejects.toMatchObject({ code: 'invalid_arguments' });
  });
});
