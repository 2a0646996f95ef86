import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import type { SqliteHandle } from './sqlite-handle.js';
import type { PatchbayStore } from './store.js';

// Issue 32: a turn's status capture and the gate's per-connector read are served from memory on
// SQLite too. What must not happen: a read made after any writer (this store, another store on the
// file, another process, plain SQL) committed a status change returns the state from before it.

const secretKey = Buffer.alloc(32, 7).toString('base64');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function home(): string {
  const directory = mkdtempSync(join(tmpdir(), 'patchbay-sqlite-cache-'));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

function open(directory: string, options: { statusCache?: boolean } = {}): PatchbayStore {
  const store = openStore({ home: directory, secretKey, env: {}, ...options });
  cleanups.push(() => store.close());
  return store;
}

/** Counts the state statements (the union over connections, policy and limits) the store runs. */
function countStateReads(store: PatchbayStore): { reads: number } {
  const counter = { reads: 0 };
  const handle = (store as unknown as { handle: SqliteHandle }).handle;
  const prepare = handle.prepare.bind(handle);
  handle.prepare = (sql: string) => {
    if (sql.includes('UNION ALL')) counter.reads += 1;
    return prepare(sql);
  };
  return counter;
}

const connect = (store: PatchbayStore, subject: string, connectorId: string) =>
  store.saveConnection(subject, {
    connectorId,
    credentials: { token: `${connectorId}-token` },
    scopes: ['read'],
  });

describe('the SQLite status cache', () => {
  it('answers repeated loads and per-connector reads from memory, with copies', async () => {
    const store = open(home());
    await connect(store, 'alice', 'github');
    await connect(store, 'alice', 'slack');
    const reads = countStateReads(store);
    const first = await store.load('alice');
    (first.connections[0]!.credentials as Record<string, string>).token = 'changed by the caller';
    const second = await store.load('alice');
    const one = await store.loadConnectors('alice', ['slack']);
    expect(reads.reads).toBe(1);
    expect(second.connections.map((connection) => connection.credentials.token)).toEqual([
      'github-token',
      'slack-token',
    ]);
    expect(one.connections.map((connection) => connection.connectorId)).toEqual(['slack']);
  });

  it("sees this store's writes, another store's on the same file and plain SQL at the next read", async () => {
    const directory = home();
    const store = open(directory);
    const other = open(directory);
    await connect(store, 'alice', 'github');
    expect((await store.load('alice')).connections).toHaveLength(1);

    await connect(store, 'alice', 'slack');
    expect((await store.loadConnectors('alice', ['slack'])).connections).toHaveLength(1);

    await other.disableConnector('github', 'alice');
    expect((await store.load('alice')).disabledConnectorIds).toEqual(['github']);

    await other.markRateLimited('alice', 'slack', '2999-01-01T00:00:00.000Z');
    expect((await store.loadConnectors('alice', ['slack'])).rateLimitedUntil).toEqual({
      slack: '2999-01-01T00:00:00.000Z',
    });

    // Another process writing plain SQL: the schema's triggers announce it all the same.
    const raw = new DatabaseSync(join(directory, 'patchbay.db'));
    cleanups.push(() => raw.close());
    raw.prepare("DELETE FROM connections WHERE subject = 'alice' AND connector_id = 'github'").run();
    expect((await store.load('alice')).connections.map((connection) => connection.connectorId)).toEqual([
      'slack',
    ]);
    raw
      .prepare("INSERT INTO admin_policy (connector_id, subject, created_at) VALUES ('slack', '', 'x')")
      .run();
    expect((await store.loadConnectors('alice', ['slack'])).disabledConnectorIds).toEqual(['slack']);
  });

  it("keeps other subjects' states across a change that names one subject, and drops all for a rule for everyone", async () => {
    const directory = home();
    const store = open(directory);
    const other = open(directory);
    await connect(store, 'alice', 'github');
    await connect(store, 'bob', 'github');
    await store.load('alice');
    await store.load('bob');
    const reads = countStateReads(store);
    await other.markRateLimited('bob', 'github', '2999-01-01T00:00:00.000Z');
    await store.load('alice');
    expect(reads.reads).toBe(0);
    expect((await store.load('bob')).rateLimitedUntil).toEqual({ github: '2999-01-01T00:00:00.000Z' });
    expect(reads.reads).toBe(1);
    await other.disableConnector('github');
    expect((await store.load('alice')).disabledConnectorIds).toEqual(['github']);
    expect(reads.reads).toBe(2);
  });

  it('drops everything when announcements it has not seen were pruned', async () => {
    const directory = home();
    const store = open(directory);
    await connect(store, 'alice', 'github');
    await store.load('alice');
    const raw = new DatabaseSync(join(directory, 'patchbay.db'));
    cleanups.push(() => raw.close());
    // A change whose announcement is gone by the next read (as the prune trigger does past 10,000).
    raw.prepare("UPDATE connections SET scopes = '[\"admin\"]' WHERE subject = 'alice'").run();
    raw.prepare('DELETE FROM status_changes').run();
    expect((await store.load('alice')).connections[0]!.scopes).toEqual(['admin']);
  });

  it('neither uses nor fills the cache inside a transaction of its own connection that is rolled back', async () => {
    const directory = home();
    const store = open(directory);
    const other = open(directory);
    await connect(store, 'alice', 'github');
    await store.load('alice');
    const database = (store as unknown as { handle: SqliteHandle }).handle.guard((open) => open);
    database.exec('BEGIN IMMEDIATE');
    database.prepare("DELETE FROM connections WHERE subject = 'alice'").run();
    expect((await store.load('alice')).connections).toEqual([]);
    database.exec('ROLLBACK');
    // A change of the same size commits afterwards: the seq is the one the rolled-back write had.
    await other.disableConnector('slack', 'bob');
    expect((await store.load('alice')).connections.map((connection) => connection.connectorId)).toEqual([
      'github',
    ]);
  });

  it('leaves out a kept rate limit once it has ended', async () => {
    const store = open(home());
    await connect(store, 'alice', 'github');
    const soon = new Date(Date.now() + 150).toISOString();
    await store.markRateLimited('alice', 'github', soon);
    expect((await store.load('alice')).rateLimitedUntil).toEqual({ github: soon });
    const reads = countStateReads(store);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await store.load('alice')).rateLimitedUntil).toEqual({});
    expect(reads.reads).toBe(0);
  });

  it('reads the database on every load with statusCache: false', async () => {
    const store = open(home(), { statusCache: false });
    await connect(store, 'alice', 'github');
    const reads = countStateReads(store);
    await store.load('alice');
    await store.load('alice');
    await store.loadConnectors('alice', ['github']);
    expect(reads.reads).toBe(3);
  });
});
