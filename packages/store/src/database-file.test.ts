import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { patchbayApplicationId } from './database-file.js';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const secretKey = Buffer.alloc(32, 5).toString('hex');
const homes: string[] = [];
const stores: PatchbayStore[] = [];

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-file-'));
  homes.push(home);
  return home;
}

function open(home: string, options: Parameters<typeof openStore>[0] = {}): PatchbayStore {
  const store = openStore({ home, secretKey, env: {}, ...options });
  stores.push(store);
  return store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const applicationId = (path: string) => {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    return (database.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
  } finally {
    database.close();
  }
};

describe.skipIf(process.platform === 'win32')('store files', () => {
  it('creates the database, its WAL and shared-memory files 0600 in a 0700 directory', async () => {
    const home = join(freshHome(), 'nested', 'home');
    const store = open(home);
    await store.disableConnector('slack'); // a write, so the WAL holds a frame
    expect(modeOf(home)).toBe(0o700);
    for (const suffix of ['', '-wal', '-shm']) expect(modeOf(join(home, `patchbay.db${suffix}`))).toBe(0o600);
  });

  it('stamps Patchbay’s application_id on a new file and leaves no temporary file behind', () => {
    const home = freshHome();
    open(home);
    expect(applicationId(join(home, 'patchbay.db'))).toBe(patchbayApplicationId);
    expect(readdirSync(home).filter((name) => name.includes('.new'))).toEqual([]);
  });

  it('stamps a database from before the id existed and keeps its rows', async () => {
    const home = freshHome();
    const path = join(home, 'patchbay.db');
    const first = open(home);
    await first.disableConnector('slack');
    first.close();
    const database = new DatabaseSync(path);
    database.exec('PRAGMA application_id = 0');
    database.close();
    const reopened = open(home);
    expect((await reopened.load('alice')).disabledConnectorIds).toEqual(['slack']);
    expect(applicationId(path)).toBe(patchbayApplicationId);
  });

  it('adopts a valid SQLite file with no tables (it holds nothing to lose)', () => {
    const home = freshHome();
    const path = join(home, 'patchbay.db');
    const database = new DatabaseSync(path);
    database.exec('PRAGMA user_version = 1'); // writes the header: a real, empty database
    database.close();
    open(home);
    expect(applicationId(path)).toBe(patchbayApplicationId);
  });

  it('accepts a key file with group access only when told to', async () => {
    const home = freshHome();
    writeFileSync(join(home, 'secret.key'), `${secretKey}\n`);
    chmodSync(join(home, 'secret.key'), 0o640);
    const allowed = open(home, { secretKey: undefined, allowInsecureKeyFile: true });
    await allowed.saveConnection('alice', { connectorId: 'github', credentials: { token: 't' }, scopes: [] });
    const fromEnvironment = open(home, {
      secretKey: undefined,
      env: { PATCHBAY_ALLOW_INSECURE_KEY_FILE: '1' },
    });
    expect((await fromEnvironment.getConnection('alice', 'github'))?.credentials).toEqual({ token: 't' });
  });
});

describe('connections', () => {
  it('round-trips the verified origin, and drops an identity that echoes the token', async () => {
    const store = open(freshHome());
    await store.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_abcdefghijklmnop1234' },
      scopes: ['repo'],
      identity: 'user ghp_abcdefghijklmnop1234',
      verifiedOrigin: 'https://api.github.com',
    });
    const [summary] = await store.listConnections('alice');
    expect(summary).toMatchObject({ verifiedOrigin: 'https://api.github.com' });
    expect(summary!.identity).toBeUndefined();
    expect((await store.load('alice')).connections[0]!.verifiedOrigin).toBe('https://api.github.com');
  });
});
