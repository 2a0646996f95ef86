import { chmodSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { PatchbayError } from '@patchbay/envelope';
import { openStore, patchbayApplicationId } from '@patchbay/store';
import { describe, expect, it } from 'vitest';
import { freshHome, storeIn, testSecretKey } from './security-helpers.js';

// Attacks on the files of the store: a key file others can read (anyone on the machine decrypts
// every credential and forges approvals), a database created world-readable, and a database file
// replaced by an empty or foreign one (before the guard a 0-byte file opened as a new, empty store:
// every connection and approval silently gone, and the next write made it look legitimate).

const modeOf = (path: string) => statSync(path).mode & 0o777;

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return PatchbayError.isInstance(error) ? error.code : `not a PatchbayError: ${String(error)}`;
  }
  return undefined;
}

function tablesOf(path: string): string[] {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    return (
      database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
  } finally {
    database.close();
  }
}

describe.skipIf(process.platform === 'win32')('key file and database permissions, like ssh', () => {
  it.each(['644', '640', '604', '660'])(
    'a key file with mode %o is refused: 0 credentials decrypted, the key never in the message',
    async (octal) => {
      const mode = Number.parseInt(octal, 8);
      const home = freshHome();
      const seed = storeIn(home);
      await seed.saveConnection('alice', {
        connectorId: 'github',
        credentials: { token: 'ghp_x' },
        scopes: [],
      });
      seed.close();
      const keyFile = join(home, 'secret.key');
      writeFileSync(keyFile, `${testSecretKey}\n`);
      chmodSync(keyFile, mode);
      const store = storeIn(home, { secretKey: undefined });
      let decrypted = 0;
      let error: unknown;
      try {
        decrypted = (await store.load('alice')).connections.length;
      } catch (caught) {
        error = caught;
      }
      expect(decrypted).toBe(0);
      expect(error).toMatchObject({ code: 'insecure_key_file' });
      expect((error as Error).message).toMatch(/UNPROTECTED SECRET KEY FILE.*chmod 600/s);
      expect((error as Error).message).not.toContain(testSecretKey);
      chmodSync(keyFile, 0o600);
      expect((await storeIn(home, { secretKey: undefined }).load('alice')).connections).toHaveLength(1);
    },
  );

  it('creates the home 0700 and the database, WAL, shared memory and key files 0600 under umask 022', async () => {
    const previous = process.umask(0o022);
    try {
      const home = join(freshHome(), 'home');
      const store = storeIn(home, { secretKey: undefined });
      await store.saveConnection('alice', {
        connectorId: 'github',
        credentials: { token: 'ghp_x' },
        scopes: [],
      });
      const open = readdirSync(home)
        .filter((name) => name !== 'patchbay.config.json')
        .map((name) => [name, modeOf(join(home, name))]);
      expect(modeOf(home)).toBe(0o700);
      expect(Object.fromEntries(open)).toEqual({
        'patchbay.db': 0o600,
        'patchbay.db-wal': 0o600,
        'patchbay.db-shm': 0o600,
        'secret.key': 0o600,
      });
    } finally {
      process.umask(previous);
    }
  });
});

describe('an empty or foreign database is store_corrupt, never a new store', () => {
  it('a database truncated to 0 bytes: store_corrupt, the file stays 0 bytes, 0 tables created', async () => {
    const home = freshHome();
    const store = storeIn(home);
    await store.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_x' },
      scopes: [],
    });
    store.close();
    const path = join(home, 'patchbay.db');
    for (const suffix of ['-wal', '-shm']) writeFileSync(`${path}${suffix}`, '');
    truncateSync(path, 0);
    expect(codeOf(() => openStore({ home, secretKey: testSecretKey, env: {} }))).toBe('store_corrupt');
    expect(statSync(path).size).toBe(0);
  });

  it('another application’s database (its own application_id): store_corrupt, its tables untouched', () => {
    const home = freshHome();
    const path = join(home, 'patchbay.db');
    const foreign = new DatabaseSync(path);
    foreign.exec('PRAGMA application_id = 1196444237; CREATE TABLE notes (body TEXT);');
    foreign.close();
    expect(codeOf(() => openStore({ home, secretKey: testSecretKey, env: {} }))).toBe('store_corrupt');
    expect(tablesOf(path)).toEqual(['notes']);
  });

  it('a SQLite file of another program without an application_id: store_corrupt, 0 tables added', () => {
    const home = freshHome();
    const path = join(home, 'patchbay.db');
    const foreign = new DatabaseSync(path);
    foreign.exec('CREATE TABLE users (name TEXT); INSERT INTO users VALUES (1);');
    foreign.close();
    expect(codeOf(() => openStore({ home, secretKey: testSecretKey, env: {} }))).toBe('store_corrupt');
    expect(tablesOf(path)).toEqual(['users']);
  });

  it('a file that is not SQLite at all: store_corrupt', () => {
    const home = freshHome();
    writeFileSync(join(home, 'patchbay.db'), 'definitely not a database '.repeat(300));
    expect(codeOf(() => openStore({ home, secretKey: testSecretKey, env: {} }))).toBe('store_corrupt');
  });

  it('control: a Patchbay database from before application_id is stamped and keeps its rows', async () => {
    const home = freshHome();
    const store = storeIn(home);
    await store.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_x' },
      scopes: [],
    });
    store.close();
    const path = join(home, 'patchbay.db');
    const database = new DatabaseSync(path);
    database.exec('PRAGMA application_id = 0');
    database.close();
    expect((await storeIn(home).load('alice')).connections).toHaveLength(1);
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA application_id').get()).toEqual({ application_id: patchbayApplicationId });
    check.close();
  });
});
