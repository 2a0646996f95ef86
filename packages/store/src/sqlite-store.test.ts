import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Proposal } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from './migrations.js';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const secretKey = Buffer.alloc(32, 1).toString('hex');
const homes: string[] = [];
const stores: PatchbayStore[] = [];

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-store-'));
  homes.push(home);
  return home;
}

function open(home: string, options: Parameters<typeof openStore>[0] = {}): PatchbayStore {
  const store = openStore({ home, secretKey, env: {}, ...options });
  stores.push(store);
  return store;
}

function proposal(id: string, overrides: Partial<Proposal> = {}): Proposal {
  return {
    id,
    subject: 'alice',
    tool: 'demo_delete_item',
    args: { item: 7 },
    argsHash: 'abc',
    createdAt: '2026-01-01T00:00:00.000Z',
    state: 'pending',
    ...overrides,
  };
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

async function expectCode(promise: Promise<unknown> | (() => unknown), code: string): Promise<PatchbayError> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    expect(PatchbayError.isInstance(error)).toBe(true);
    expect((error as PatchbayError).code).toBe(code);
    return error as PatchbayError;
  }
  throw new Error(`expected a PatchbayError with code ${code}`);
}

describe('openStore', () => {
  it('creates the file under home and records every migration once', () => {
    const home = freshHome();
    open(home).close();
    open(home).close();
    const database = new DatabaseSync(join(home, 'patchbay.db'));
    const rows = database.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    const mode = database.prepare('PRAGMA journal_mode').get();
    database.close();
    expect(rows).toEqual(migrations.map(({ version, name }) => ({ version, name })));
    expect(mode).toEqual({ journal_mode: 'wal' });
  });

  it('refuses a database written by a newer schema', () => {
    const home = freshHome();
    open(home).close();
    const database = new DatabaseSync(join(home, 'patchbay.db'));
    database.prepare("INSERT INTO schema_migrations VALUES (999, 'future', '2030-01-01')").run();
    database.close();
    return expectCode(() => openStore({ home, env: {} }), 'store_too_new');
  });

  it('reports a corrupt file as store_corrupt', async () => {
    const home = freshHome();
    writeFileSync(
      join(home, 'patchbay.db'),
      Buffer.from('this is not a sqlite database, just bytes '.repeat(200)),
    );
    const error = await expectCode(() => openStore({ home, env: {} }), 'store_corrupt');
    expect(error.message).toContain('patchbay.db');
  });

  it('reports a write lock held past the busy timeout as store_locked', async () => {
    const home = freshHome();
    const store = open(home, { busyTimeoutMs: 50 });
    const other = new DatabaseSync(join(home, 'patchbay.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const error = await expectCode(store.disableConnector('slack'), 'store_locked');
      expect(error.message).toMatch(/locked by another process/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await store.disableConnector('slack');
    expect((await store.load('alice')).disabledConnectorIds).toEqual(['slack']);
  });
});

describe('connections', () => {
  it('round-trips a connection with its identity and verification time', async () => {
    const store = open(freshHome());
    await store.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_secret' },
      scopes: ['repo'],
      identity: 'alice-gh',
      verifiedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await store.getConnection('alice', 'github')).toEqual({
      connectorId: 'github',
      hasCredentials: true,
      scopes: ['repo'],
      identity: 'alice-gh',
      verifiedAt: '2026-01-01T00:00:00.000Z',
      credentials: { token: 'ghp_secret' },
    });
    expect(await store.getConnection('bob', 'github')).toBeUndefined();
    // The status source reports the verification time beside what the contract suite checks.
    expect((await store.load('alice')).connections[0]?.verifiedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('records failed verifications, cleared by a good connect', async () => {
    const store = open(freshHome());
    await store.recordFailedVerification('alice', 'slack', 'The token was revoked.');
    expect(await store.listConnections('alice')).toMatchObject([
      { connectorId: 'slack', hasCredentials: false, credentialError: 'The token was revoked.' },
    ]);
    expect((await store.load('alice')).connections[0]).toMatchObject({
      credentials: {},
      credentialError: 'The token was revoked.',
    });

    await store.saveConnection('alice', {
      connectorId: 'slack',
      credentials: { token: 'xoxb-1' },
      scopes: ['chat:write'],
    });
    expect((await store.listConnections('alice'))[0]?.credentialError).toBeUndefined();
  });

  it('deletes connections', async () => {
    const store = open(freshHome());
    await store.saveConnection('alice', { connectorId: 'github', credentials: { token: 't1' }, scopes: [] });
    expect(await store.deleteConnection('alice', 'github')).toBe(true);
    expect(await store.deleteConnection('alice', 'github')).toBe(false);
    expect(await store.listConnections('alice')).toEqual([]);
  });

  it('loads connections, disabled connectors and rate limits in connector order, however they were written', async () => {
    const store = open(freshHome());
    const ids = ['slack', 'asana', 'zendesk', 'github', 'jira'];
    for (const connectorId of ids) {
      await store.saveConnection('alice', { connectorId, credentials: { token: connectorId }, scopes: [] });
      await store.markRateLimited('alice', connectorId, '2999-01-01T00:00:00.000Z');
      // Disabled for everyone (read first, by the index) or for alice.
      await store.disableConnector(connectorId, connectorId > 'k' ? undefined : 'alice');
    }
    const state = await store.load('alice');
    const sorted = [...ids].sort();
    expect(state.connections.map((connection) => connection.connectorId)).toEqual(sorted);
    expect(state.disabledConnectorIds).toEqual(sorted);
    expect(Object.keys(state.rateLimitedUntil)).toEqual(sorted);
  });

  it('keeps no plaintext credential in the database file or its WAL', async () => {
    const home = freshHome();
    const store = open(home);
    const canary = 'canary-Q7xk2M9pLr4vT8wZ';
    await store.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: canary },
      scopes: [],
    });
    await store.saveConnection('alice', {
      connectorId: 'slack',
      credentials: { bot_token: canary, team: 'T1' },
      scopes: [],
    });
    expect((await store.getConnection('alice', 'github'))?.credentials.token).toBe(canary);
    const files = ['patchbay.db', 'patchbay.db-wal'].map((name) => join(home, name)).filter(existsSync);
    expect(files.length).toBeGreaterThan(0);
    let bytesSearched = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      bytesSearched += bytes.length;
      for (const form of [
        canary,
        Buffer.from(canary).toString('base64'),
        Buffer.from(canary).toString('hex'),
      ]) {
        expect(bytes.includes(Buffer.from(form))).toBe(false);
      }
      expect(bytes.includes(Buffer.from(canary, 'utf16le'))).toBe(false);
    }
    expect(bytesSearched).toBeGreaterThan(0);
  });

  it('fails with wrong_secret_key instead of returning garbage', async () => {
    const home = freshHome();
    const store = open(home);
    await store.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_secret' },
      scopes: [],
    });
    store.close();
    const wrong = open(home, { secretKey: Buffer.alloc(32, 2).toString('base64') });
    const error = await expectCode(wrong.load('alice'), 'wrong_secret_key');
    expect(error.message).not.toContain(Buffer.alloc(32, 2).toString('base64'));
    await expectCode(wrong.getConnection('alice', 'github'), 'wrong_secret_key');
    // Reads that need no key still work.
    expect(await wrong.listConnections('alice')).toHaveLength(1);
  });

  it('refuses a row copied to another subject', async () => {
    const home = freshHome();
    const store = open(home);
    await store.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_alice' },
      scopes: [],
    });
    await store.saveConnection('mallory', {
      connectorId: 'github',
      credentials: { token: 'ghp_mallory' },
      scopes: [],
    });
    const database = new DatabaseSync(join(home, 'patchbay.db'));
    database.exec(`UPDATE connections SET (credentials_ciphertext, credentials_iv, credentials_tag) =
      (SELECT credentials_ciphertext, credentials_iv, credentials_tag FROM connections WHERE subject = 'alice')
      WHERE subject = 'mallory'`);
    database.close();
    await expectCode(store.getConnection('mallory', 'github'), 'wrong_secret_key');
  });
});

describe('secret key file', () => {
  it('is created with mode 0600 on first use and reused', async () => {
    const home = freshHome();
    const first = open(home, { secretKey: undefined });
    expect(existsSync(join(home, 'secret.key'))).toBe(false);
    await first.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_x' },
      scopes: [],
    });
    expect(statSync(join(home, 'secret.key')).mode & 0o777).toBe(0o600);
    first.close();
    const second = open(home, { secretKey: undefined });
    expect((await second.getConnection('alice', 'github'))?.credentials).toEqual({ token: 'ghp_x' });
  });

  it('takes PATCHBAY_SECRET_KEY over the key file and rejects a malformed one', async () => {
    const home = freshHome();
    const fromEnvironment = open(home, { secretKey: undefined, env: { PATCHBAY_SECRET_KEY: secretKey } });
    await fromEnvironment.saveConnection('alice', {
      connectorId: 'github',
      credentials: { token: 'ghp_x' },
      scopes: [],
    });
    expect(existsSync(join(home, 'secret.key'))).toBe(false);
    const malformed = open(home, { secretKey: undefined, env: { PATCHBAY_SECRET_KEY: 'too-short' } });
    const error = await expectCode(malformed.load('alice'), 'invalid_secret_key');
    expect(error.message).toContain('PATCHBAY_SECRET_KEY');
    expect(error.message).not.toContain('too-short');
  });
});

describe('policy and rate limits', () => {
  it('lists and lifts global and per-subject disable rules', async () => {
    const store = open(freshHome());
    await store.disableConnector('slack');
    await store.disableConnector('jira', 'alice');
    await store.disableConnector('jira', 'alice');
    expect(await store.listPolicy()).toMatchObject([
      { connectorId: 'slack' },
      { connectorId: 'jira', subject: 'alice' },
    ]);
    expect(await store.enableConnector('slack')).toBe(true);
    expect(await store.enableConnector('slack')).toBe(false);
    expect((await store.load('bob')).disabledConnectorIds).toEqual([]);
  });

  it('reports live rate limits only, and forgets one on request or on a good connect', async () => {
    const store = open(freshHome());
    const future = new Date(Date.now() + 60_000).toISOString();
    await store.markRateLimited('alice', 'github', future);
    await store.markRateLimited('alice', 'slack', '2001-01-01T00:00:00Z');
    expect((await store.load('alice')).rateLimitedUntil).toEqual({ github: future });
    await store.clearRateLimit('alice', 'github');
    expect((await store.load('alice')).rateLimitedUntil).toEqual({});
    await store.markRateLimited('alice', 'github', future);
    await store.saveConnection('alice', { connectorId: 'github', credentials: { token: 't' }, scopes: [] });
    expect((await store.load('alice')).rateLimitedUntil).toEqual({});
    await expectCode(store.markRateLimited('alice', 'github', 'soon'), 'invalid_arguments');
  });
});

// What every proposal store does is the contract suite's (store-contracts.test.ts); here, what only
// this one promises.
describe('proposals', () => {
  it('refuses a duplicate id as a conflict', async () => {
    const store = open(freshHome());
    await store.proposals.create(proposal('prop_1'));
    await expectCode(store.proposals.create(proposal('prop_1')), 'conflict');
  });

  it('lists oldest first', async () => {
    const store = open(freshHome());
    await store.proposals.create(proposal('prop_b', { createdAt: '2026-01-02T00:00:00.000Z' }));
    await store.proposals.create(proposal('prop_a', { createdAt: '2026-01-03T00:00:00.000Z' }));
    await store.proposals.create(proposal('prop_c', { createdAt: '2026-01-01T00:00:00.000Z' }));
    expect((await store.proposals.list()).map((item) => item.id)).toEqual(['prop_c', 'prop_b', 'prop_a']);
  });

  it('keeps owner and MAC as given, writes the approval MAC, and clears decisions on a return to pending', async () => {
    const store = open(freshHome());
    await store.proposals.create(proposal('prop_1', { owner: 'connector:demo', mac: 'signed' }));
    expect(await store.proposals.get('prop_1')).toMatchObject({ owner: 'connector:demo', mac: 'signed' });
    const approved = await store.proposals.transition('prop_1', 'pending', 'approved', {
      decidedBy: 'ops',
      at: '2026-01-03T00:00:00.000Z',
      approvalMac: 'approval',
    });
    expect(approved).toMatchObject({ approvalMac: 'approval', mac: 'signed' });
    const reopened = await store.proposals.transition('prop_1', 'approved', 'pending');
    expect(reopened).toMatchObject({ state: 'pending', mac: 'signed', owner: 'connector:demo' });
    expect(reopened).not.toHaveProperty('approvalMac');
    expect(reopened).not.toHaveProperty('decidedAt');
    expect(reopened).not.toHaveProperty('decidedBy');
    // A rejection never carries an approval MAC.
    const rejected = await store.proposals.transition('prop_1', 'pending', 'rejected', {
      reason: 'no',
      approvalMac: 'forged',
    });
    expect(rejected).not.toHaveProperty('approvalMac');
  });

  it('derives the proposal MAC key from the secret key: same secret, same key; never the secret itself', async () => {
    const home = freshHome();
    const key = open(home).proposals.macKey?.();
    expect(key).toHaveLength(32);
    expect(Buffer.from(key!).equals(Buffer.from(secretKey, 'hex'))).toBe(false);
    expect(Buffer.from(open(home).proposals.macKey!()).equals(Buffer.from(key!))).toBe(true);
    const other = open(freshHome(), { secretKey: Buffer.alloc(32, 2).toString('hex') });
    expect(Buffer.from(other.proposals.macKey!()).equals(Buffer.from(key!))).toBe(false);
    // The database file holds neither key.
    const bytes = readFileSync(join(home, 'patchbay.db'));
    expect(bytes.includes(Buffer.from(key!))).toBe(false);
  });

  it('is shared between two handles on one file', async () => {
    const home = freshHome();
    const one = open(home);
    const two = open(home);
    await one.proposals.create(proposal('prop_x'));
    expect(await two.proposals.transition('prop_x', 'pending', 'approved')).toBeDefined();
    expect(await one.proposals.transition('prop_x', 'pending', 'approved')).toBeUndefined();
  });
});

describe('checkpoints and audit', () => {
  it('refuses a checkpoint that is not a JSON value', async () => {
    const store = open(freshHome());
    await expectCode(store.saveCheckpoint('thread-1', undefined), 'invalid_arguments');
    expect(await store.loadCheckpoint('thread-1')).toBeUndefined();
  });

  it('numbers audit entries, pages them, and its triggers refuse to change them', async () => {
    const home = freshHome();
    const store = open(home);
    await store.audit.append({ event: 'connect', connector: 'github', at: '2026-01-01T00:00:00.000Z' });
    await store.audit.append({ event: 'approve', proposal: 'prop_1' });
    const records = await store.audit.list();
    expect(records.map((record) => record.entry.event)).toEqual(['connect', 'approve']);
    expect(records[0]).toMatchObject({ seq: 1, at: '2026-01-01T00:00:00.000Z' });
    expect(typeof records[1]?.at).toBe('string');
    expect(await store.audit.list({ afterSeq: 1 })).toHaveLength(1);
    const database = new DatabaseSync(join(home, 'patchbay.db'));
    expect(() => database.exec('DELETE FROM audit')).toThrow(/append-only/);
    expect(() => database.exec("UPDATE audit SET entry = '{}'")).toThrow(/append-only/);
    database.close();
  });
});
