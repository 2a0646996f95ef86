import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { adminQuery, describePostgres, freshSchema, postgresUrl } from '../test/postgres-server.js';
import { openPostgresStore } from './open-postgres-store.js';
import { openStore } from './open-store.js';
import { postgresMigrations } from './postgres-schema.js';

const secretKey = Buffer.alloc(32, 9).toString('base64');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function schema() {
  const fresh = freshSchema('store');
  cleanups.push(fresh.drop);
  return fresh;
}

async function open(
  url: string,
  options: { secretKey?: string; home?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'patchbay-pg-'));
  const store = await openPostgresStore({
    url,
    home,
    env: options.env ?? {},
    secretKey: options.secretKey ?? secretKey,
  });
  cleanups.push(async () => {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  });
  return store;
}

describePostgres('the Postgres store', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of the audit log in the database itself', async () => {
    const { url, schema: name } = schema();
    const store = await open(url);
    await store.audit.append({ event: 'approved', proposal: 'prop_1' });
    await store.audit.append({ event: 'rejected', proposal: 'prop_2' });
    // Straight to the server, bypassing the store: the guard is the table's, not the code's.
    await expect(adminQuery(name, `UPDATE audit SET entry = '{}'`)).rejects.toThrow(/append-only/);
    await expect(adminQuery(name, 'DELETE FROM audit')).rejects.toThrow(/append-only/);
    await expect(adminQuery(name, 'TRUNCATE audit')).rejects.toThrow(/append-only/);
    const entries = (await store.audit.list()).map((record) => record.entry.event);
    expect(entries).toEqual(['approved', 'rejected']);
  });

  it('keeps memory entries append-only in the database and finds them by stemmed words across processes', async () => {
    const { url, schema: name } = schema();
    const writer = await open(url);
    const vault = await writer.memory.createVault('alice', { title: 'assistant' });
    const memory = await writer.memory.createMemory('alice', vault.id, { title: 'chat', memoryType: 'CHAT' });
    await writer.memory.addEntry('alice', vault.id, memory.id, {
      rawEntry: 'Alice is migrating the billing service to Postgres next week.',
      summary: 'Billing migration planned',
      tags: { topic: 'databases' },
    });
    await expect(adminQuery(name, `UPDATE memory_entries SET raw_entry = 'rewritten'`)).rejects.toThrow(
      /append-only/,
    );
    // Another instance on the same database: stemming finds "migrations" for "migrating", tags count too.
    const reader = await open(url);
    const [hit] = await reader.memory.searchEntries('alice', { query: 'migrations of billing' });
    expect(hit?.entry.summary).toBe('Billing migration planned');
    expect(await reader.memory.searchEntries('alice', { query: 'databases' })).toHaveLength(1);
    expect(await reader.memory.searchEntries('bob', { query: 'billing' })).toEqual([]);
  });

  it('numbers audit rows in commit order, with no gaps under concurrent appends', async () => {
    const { url } = schema();
    const store = await open(url);
    await Promise.all(Array.from({ length: 40 }, (_, index) => store.audit.append({ index })));
    const seqs = (await store.audit.list({ limit: 100 })).map((record) => record.seq);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  });

  it('migrates once when eight openers start on a fresh schema at the same moment', async () => {
    const { url, schema: name } = schema();
    const stores = await Promise.all(Array.from({ length: 8 }, () => open(url)));
    const applied = await adminQuery<{ version: number }>(
      name,
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(applied.map((row) => row.version)).toEqual(postgresMigrations.map((step) => step.version));
    await stores[3]!.saveConnection('ana', {
      connectorId: 'github',
      credentials: { token: 't' },
      scopes: [],
    });
    expect((await stores[6]!.load('ana')).connections).toHaveLength(1);
  });

  it('refuses a schema newer than this Patchbay with store_too_new', async () => {
    const { url, schema: name } = schema();
    await open(url);
    await adminQuery(name, `INSERT INTO schema_migrations VALUES (999, 'future', 'now')`);
    await expect(openPostgresStore({ url, secretKey, env: {} })).rejects.toMatchObject({
      code: 'store_too_new',
    });
  });

  it('stores credentials sealed, bound to subject and connector, never in plaintext', async () => {
    const { url, schema: name } = schema();
    const store = await open(url);
    await store.saveConnection('ana', {
      connectorId: 'github',
      credentials: { token: 'canary-gh-7f3a' },
      scopes: ['repo'],
    });
    await store.saveConnection('bo', {
      connectorId: 'github',
      credentials: { token: 'bo-token' },
      scopes: [],
    });
    const dump = await adminQuery<{ text: string }>(
      name,
      'SELECT row_to_json(connections)::text AS text FROM connections',
    );
    expect(dump.map((row) => row.text).join('\n')).not.toContain('canary-gh-7f3a');
    // A sealed value moved to another subject's row does not decrypt there.
    await adminQuery(
      name,
      `UPDATE connections SET (credentials_ciphertext, credentials_iv, credentials_tag) =
         (SELECT credentials_ciphertext, credentials_iv, credentials_tag FROM connections WHERE subject = 'ana')
       WHERE subject = 'bo'`,
    );
    await expect(store.load('bo')).rejects.toMatchObject({ code: 'wrong_secret_key' });
  });

  it('fails with wrong_secret_key for another key, and tells a machine without a key to share it', async () => {
    const { url } = schema();
    const first = await open(url);
    await first.saveConnection('ana', { connectorId: 'github', credentials: { token: 't' }, scopes: [] });
    const other = await open(url, { secretKey: Buffer.alloc(32, 1).toString('base64') });
    await expect(other.load('ana')).rejects.toMatchObject({ code: 'wrong_secret_key' });
    const home = mkdtempSync(join(tmpdir(), 'patchbay-pg-nokey-'));
    const keyless = await openPostgresStore({ url, home, env: {} });
    cleanups.push(async () => {
      await keyless.close();
      rmSync(home, { recursive: true, force: true });
    });
    const failure = await keyless.load('ana').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'wrong_secret_key' });
    expect(String((failure as Error).message)).toContain('PATCHBAY_SECRET_KEY');
  });

  it('is what openStore opens for a postgres:// URL, given or from PATCHBAY_DATABASE_URL', async () => {
    const { url } = schema();
    const home = mkdtempSync(join(tmpdir(), 'patchbay-pg-open-'));
    const fromOption = openStore({ url, home, secretKey, env: {} });
    const fromEnvironment = openStore({ home, secretKey, env: { PATCHBAY_DATABASE_URL: url } });
    cleanups.push(async () => {
      await fromOption.close();
      await fromEnvironment.close();
      rmSync(home, { recursive: true, force: true });
    });
    await fromOption.saveConnection('ana', { connectorId: 'slack', credentials: { token: 'x' }, scopes: [] });
    expect((await fromEnvironment.listConnections('ana')).map((item) => item.connectorId)).toEqual(['slack']);
    expect(fromOption.location).toContain('postgres://');
  });

  it("drops a subject's kept status when another process's change of it is announced, before any listener hears it", async () => {
    const { url } = schema();
    const writer = await open(url);
    const reader = await open(url);
    await writer.saveConnection('ana', { connectorId: 'github', credentials: { token: 't' }, scopes: [] });
    await reader.load('ana'); // starts listening
    await reader.listening();
    expect((await reader.load('ana')).disabledConnectorIds).toEqual([]); // kept from here on
    // Read inside the listener, at the moment the change is heard: never the kept state.
    const seen = new Promise<string[]>((resolve, reject) => {
      const stop = reader.subscribe((change) => {
        if (change.kind !== 'policy') return;
        stop();
        reader.load('ana').then((state) => resolve(state.disabledConnectorIds), reject);
      });
    });
    await writer.disableConnector('github', 'ana');
    expect(await seen).toEqual(['github']);
  });

  it('serves kept status while no change is announced, and its own writes at once', async () => {
    const { url, schema: name } = schema();
    const store = await open(url);
    const home = mkdtempSync(join(tmpdir(), 'patchbay-pg-uncached-'));
    const uncached = await openPostgresStore({ url, home, secretKey, env: {}, statusCache: false });
    cleanups.push(async () => {
      await uncached.close();
      rmSync(home, { recursive: true, force: true });
    });
    await store.saveConnection('ana', { connectorId: 'github', credentials: { token: 't' }, scopes: [] });
    await store.load('ana');
    await store.listening();
    await store.load('ana');
    // A write that announces nothing (triggers off for the session): only the uncached store sees it.
    await adminQuery(
      name,
      `SET session_replication_role = replica; UPDATE connections SET scopes = '["repo"]' WHERE subject = 'ana'`,
    );
    expect((await store.load('ana')).connections[0]?.scopes).toEqual([]);
    expect((await uncached.load('ana')).connections[0]?.scopes).toEqual(['repo']);
    const until = new Date(Date.now() + 60_000).toISOString();
    await store.markRateLimited('ana', 'github', until);
    const after = await store.loadConnectors('ana', ['github']);
    expect(after.rateLimitedUntil).toEqual({ github: until });
    expect(after.connections[0]?.scopes).toEqual(['repo']);
  });

  it('commits a thread append asynchronously only when asked, and refuses an unknown asyncCommit', async () => {
    const { url, schema: name } = schema();
    await open(url);
    const setting = async (relaxed: boolean) => {
      const client = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${name}` });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `SELECT thread_append($1, 't1', 'now', ARRAY['user'], ARRAY['now'], ARRAY['json'], ARRAY['{}'], $2)`,
          [name, relaxed],
        );
        const { rows } = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
        await client.query('COMMIT');
        return rows[0]?.synchronous_commit;
      } finally {
        await client.end();
      }
    };
    expect(await setting(true)).toBe('off');
    expect(await setting(false)).toBe('on');
    const ordinals = await adminQuery<{ ordinal: number }>(
      name,
      'SELECT ordinal FROM threads ORDER BY ordinal',
    );
    expect(ordinals.map((row) => row.ordinal)).toEqual([0, 1]);
    expect(() =>
      openStore({ url, secretKey, env: {}, asyncCommit: 'sometimes' as unknown as 'all' }),
    ).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
  });

  it('never shows the URL password in its location or errors', async () => {
    const url = new URL(postgresUrl);
    url.password = 'hunter2-secret';
    url.port = '1'; // nothing listens there
    const store = openStore({ url: url.toString(), secretKey, env: {} });
    const failure = await store.load('ana').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'store_error' });
    expect(String((failure as Error).message)).not.toContain('hunter2-secret');
    expect(store.location).not.toContain('hunter2-secret');
    await store.close();
  });
});
