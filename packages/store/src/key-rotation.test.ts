import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { adminQuery, describePostgres, freshSchema } from '../test/postgres-server.js';
import { keyId } from './keyring.js';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const oldKey = Buffer.alloc(32, 21).toString('base64');
const newKey = Buffer.alloc(32, 22).toString('base64');
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One database (SQLite file or Postgres schema) a test opens handles on, as separate processes would. */
interface Database {
  open(options: { secretKey: string; previousSecretKeys?: string[] }): PatchbayStore;
  /** The `key_id` column of every connection row, straight from the database. */
  keyIds(): Promise<(string | null)[]>;
  /** Clears `key_id` of every row, as rows stored before it was recorded have it. */
  forgetKeyIds(): Promise<void>;
}

function sqliteDatabase(): Database {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-rotate-'));
  const path = join(home, 'patchbay.db');
  const stores: PatchbayStore[] = [];
  cleanups.push(() => {
    for (const store of stores) store.close();
    rmSync(home, { recursive: true, force: true });
  });
  const direct = <T>(work: (database: DatabaseSync) => T): T => {
    const database = new DatabaseSync(path);
    try {
      return work(database);
    } finally {
      database.close();
    }
  };
  return {
    open(options) {
      const store = openStore({ path, home, env: {}, ...options });
      stores.push(store);
      return store;
    },
    keyIds: async () =>
      direct((database) =>
        (
          database.prepare('SELECT key_id FROM connections ORDER BY subject, connector_id').all() as {
            key_id: string | null;
          }[]
        ).map((row) => row.key_id),
      ),
    forgetKeyIds: async () => {
      direct((database) => database.exec('UPDATE connections SET key_id = NULL'));
    },
  };
}

function postgresDatabase(): Database {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-rotate-pg-'));
  const fresh = freshSchema('rotate');
  const stores: PatchbayStore[] = [];
  cleanups.push(async () => {
    for (const store of stores) await store.close();
    await fresh.drop();
    rmSync(home, { recursive: true, force: true });
  });
  return {
    open(options) {
      const store = openStore({ url: fresh.url, home, env: {}, ...options });
      stores.push(store);
      return store;
    },
    keyIds: async () =>
      (
        await adminQuery<{ key_id: string | null }>(
          fresh.schema,
          'SELECT key_id FROM connections ORDER BY subject, connector_id',
        )
      ).map((row) => row.key_id),
    forgetKeyIds: async () => {
      await adminQuery(fresh.schema, 'UPDATE connections SET key_id = NULL');
    },
  };
}

const subjects = ['ana', 'bo', 'carol', 'dan', 'eve'];
const connectors = ['github', 'slack', 'jira', 'linear', 'notion'];
const tokenOf = (subject: string, connector: string) => `${subject}-${connector}-token-${'s'.repeat(20)}`;

/** 25 connections, each with a token of its own. */
async function seed(store: PatchbayStore): Promise<void> {
  for (const subject of subjects) {
    for (const connectorId of connectors) {
      await store.saveConnection(subject, {
        connectorId,
        credentials: { token: tokenOf(subject, connectorId) },
        scopes: ['read'],
      });
    }
  }
}

/** Every credential as the store reads it back, checked against what was saved. */
async function expectEveryCredential(store: PatchbayStore): Promise<void> {
  for (const subject of subjects) {
    const state = await store.loadConnectors(subject, connectors);
    expect(
      Object.fromEntries(
        state.connections.map((connection) => [connection.connectorId, connection.credentials]),
      ),
    ).toEqual(
      Object.fromEntries(connectors.map((connector) => [connector, { token: tokenOf(subject, connector) }])),
    );
  }
}

function describeRotation(name: string, database: () => Database, suite = describe) {
  suite(`key rotation on ${name}`, () => {
    it('re-encrypts every credential under the new key and records its id on every row', async () => {
      const db = database();
      const before = db.open({ secretKey: oldKey });
      await seed(before);
      expect(new Set(await db.keyIds())).toEqual(new Set([keyId(Buffer.from(oldKey, 'base64'))]));

      const report = await db.open({ secretKey: oldKey }).rotateSecretKey(newKey, { batchSize: 7 });
      expect(report).toEqual({ keyId: keyId(Buffer.from(newKey, 'base64')), rotated: 25 });
      expect(new Set(await db.keyIds())).toEqual(new Set([report.keyId]));

      await expectEveryCredential(db.open({ secretKey: newKey }));
      // A process left on the old key alone is refused at the key check, before any credential.
      await expect(db.open({ secretKey: oldKey }).load('ana')).rejects.toMatchObject({
        code: 'wrong_secret_key',
      });
      // Rotating again finds nothing left to do.
      expect(await db.open({ secretKey: newKey }).rotateSecretKey(newKey)).toMatchObject({ rotated: 0 });
    });

    it('loses nothing when interrupted: reads work with either key, and a rerun resumes', async () => {
      const db = database();
      await seed(db.open({ secretKey: oldKey }));
      const rotator = db.open({ secretKey: oldKey });
      await expect(
        rotator.rotateSecretKey(newKey, {
          batchSize: 4,
          afterBatch: ({ rotated }) => {
            if (rotated >= 8) throw new Error('interrupted');
          },
        }),
      ).rejects.toThrow('interrupted');
      const ids = await db.keyIds();
      const newId = keyId(Buffer.from(newKey, 'base64'));
      expect(ids.filter((id) => id === newId)).toHaveLength(8);
      expect(ids.filter((id) => id !== newId)).toHaveLength(17);

      // Mid-rotation, an instance configured with the new key and the old one as previous reads all,
      // and so does one still on the old key with the new one listed.
      await expectEveryCredential(db.open({ secretKey: newKey, previousSecretKeys: [oldKey] }));
      await expectEveryCredential(db.open({ secretKey: oldKey, previousSecretKeys: [newKey] }));
      // One with the old key alone reads the old rows and names the key it lacks for the new ones.
      const oldOnly = db.open({ secretKey: oldKey });
      await expect(oldOnly.load('ana')).rejects.toThrow(new RegExp(newId));
      expect((await oldOnly.load('eve')).connections).toHaveLength(5);

      // A write during the rotation, by an instance on the old key, is picked up by the rerun.
      await oldOnly.saveConnection('eve', {
        connectorId: 'extra',
        credentials: { token: 'late' },
        scopes: [],
      });
      const resumed = await db
        .open({ secretKey: newKey, previousSecretKeys: [oldKey] })
        .rotateSecretKey(newKey);
      expect(resumed).toEqual({ keyId: newId, rotated: 18 });
      expect(new Set(await db.keyIds())).toEqual(new Set([newId]));
      const after = db.open({ secretKey: newKey });
      await expectEveryCredential(after);
      expect((await after.getConnection('eve', 'extra'))?.credentials).toEqual({ token: 'late' });
    });

    it('keeps a proposal made before the rotation verifiable: the old key stays a previous MAC key', async () => {
      const db = database();
      const before = db.open({ secretKey: oldKey });
      await seed(before);
      const oldMacKey = Buffer.from(before.proposals.macKey!());
      await db.open({ secretKey: oldKey }).rotateSecretKey(newKey);
      const after = db.open({ secretKey: newKey, previousSecretKeys: [oldKey] });
      expect(Buffer.from(after.proposals.macKey!()).equals(oldMacKey)).toBe(false);
      expect(after.proposals.previousMacKeys!().map((key) => Buffer.from(key).toString('hex'))).toEqual([
        oldMacKey.toString('hex'),
      ]);
      // Without previous keys there is nothing to accept besides the current key.
      expect(db.open({ secretKey: newKey }).proposals.previousMacKeys!()).toEqual([]);
    });

    it('rotates rows stored before key ids were recorded', async () => {
      const db = database();
      await seed(db.open({ secretKey: oldKey }));
      await db.forgetKeyIds();
      // Without an id the ring tries its keys: the old key still opens them.
      await expectEveryCredential(db.open({ secretKey: newKey, previousSecretKeys: [oldKey] }));
      expect(await db.open({ secretKey: oldKey }).rotateSecretKey(newKey)).toMatchObject({ rotated: 25 });
      await expectEveryCredential(db.open({ secretKey: newKey }));
    });

    it('refuses a new key that is not 32 bytes, changing nothing', async () => {
      const db = database();
      await seed(db.open({ secretKey: oldKey }));
      await expect(db.open({ secretKey: oldKey }).rotateSecretKey('too-short')).rejects.toMatchObject({
        code: 'invalid_secret_key',
      });
      expect(new Set(await db.keyIds())).toEqual(new Set([keyId(Buffer.from(oldKey, 'base64'))]));
      await expectEveryCredential(db.open({ secretKey: oldKey }));
    });

    it('refuses to rotate with a configured key that is not the database’s', async () => {
      const db = database();
      await seed(db.open({ secretKey: oldKey }));
      const stranger = Buffer.alloc(32, 99).toString('base64');
      await expect(db.open({ secretKey: stranger }).rotateSecretKey(newKey)).rejects.toMatchObject({
        code: 'wrong_secret_key',
      });
      expect(new Set(await db.keyIds())).toEqual(new Set([keyId(Buffer.from(oldKey, 'base64'))]));
    });
  });
}

describeRotation('SQLite', sqliteDatabase);
describePostgres('Postgres', () => {
  describeRotation('Postgres', postgresDatabase);

  it('honours PATCHBAY_ALLOW_INSECURE_KEY_FILE for the key file, as SQLite does', async () => {
    const home = mkdtempSync(join(tmpdir(), 'patchbay-pg-key-'));
    const fresh = freshSchema('insecure');
    writeFileSync(join(home, 'secret.key'), `${oldKey}\n`, { mode: 0o644 });
    const refused = openStore({ url: fresh.url, home, env: {} });
    const allowed = openStore({ url: fresh.url, home, env: { PATCHBAY_ALLOW_INSECURE_KEY_FILE: '1' } });
    cleanups.push(async () => {
      await refused.close();
      await allowed.close();
      await fresh.drop();
      rmSync(home, { recursive: true, force: true });
    });
    await expect(
      refused.saveConnection('ana', { connectorId: 'github', credentials: { token: 't' }, scopes: [] }),
    ).rejects.toMatchObject({ code: 'insecure_key_file' });
    await allowed.saveConnection('ana', { connectorId: 'github', credentials: { token: 't' }, scopes: [] });
    expect((await allowed.getConnection('ana', 'github'))?.credentials).toEqual({ token: 't' });
  });
});
