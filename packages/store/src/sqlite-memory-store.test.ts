import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describeMemoryStoreContract } from '@patchbay/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const secretKey = Buffer.alloc(32, 7).toString('base64');

async function sqliteMemory() {
  const home = await mkdtemp(join(tmpdir(), 'patchbay-memory-'));
  const store = openStore({ home, secretKey, env: {} });
  return {
    store,
    home,
    memory: store.memory,
    async close() {
      store.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

describeMemoryStoreContract('SQLite', sqliteMemory);

describe('SQLite memory storage', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const harness of opened.splice(0)) await harness.close();
  });

  it('refuses to change an entry even through raw SQL: entries are append-only', async () => {
    const harness = await sqliteMemory();
    opened.push(harness);
    const vault = await harness.memory.createVault('alice', { title: 'v' });
    const memory = await harness.memory.createMemory('alice', vault.id, { title: 'm', memoryType: 'CHAT' });
    await harness.memory.addEntry('alice', vault.id, memory.id, { rawEntry: 'said once', summary: 'once' });
    const database = new DatabaseSync(harness.store.location);
    try {
      expect(() => database.exec("UPDATE memory_entries SET raw_entry = 'rewritten'")).toThrow(/append-only/);
    } finally {
      database.close();
    }
    const [entry] = await harness.memory.listEntries('alice', vault.id, memory.id);
    expect(entry?.rawEntry).toBe('said once');
  });

  it('sees what another handle on the same file wrote', async () => {
    const harness = await sqliteMemory();
    opened.push(harness);
    const other: PatchbayStore = openStore({ home: harness.home, secretKey, env: {} });
    try {
      const vault = await harness.memory.createVault('alice', { title: 'v' });
      const memory = await other.memory.createMemory('alice', vault.id, { title: 'm', memoryType: 'CHAT' });
      await other.memory.putContext('alice', vault.id, memory.id, 'from the other process');
      expect(await harness.memory.getContext('alice', vault.id, memory.id)).toMatchObject({
        content: 'from the other process',
      });
    } finally {
      other.close();
    }
  });

  it('re-seals entries and contexts in a key rotation: the new key alone reads them afterwards', async () => {
    const harness = await sqliteMemory();
    opened.push(harness);
    const vault = await harness.memory.createVault('alice', { title: 'v' });
    const memory = await harness.memory.createMemory('alice', vault.id, { title: 'm', memoryType: 'CHAT' });
    await harness.memory.addEntry('alice', vault.id, memory.id, {
      rawEntry: 'kept through rotation',
      summary: 's',
    });
    await harness.memory.putContext('alice', vault.id, memory.id, 'context through rotation');
    const newKey = Buffer.alloc(32, 11).toString('base64');
    await harness.store.rotateSecretKey(newKey);
    const rotated: PatchbayStore = openStore({ home: harness.home, secretKey: newKey, env: {} });
    try {
      const [entry] = await rotated.memory.listEntries('alice', vault.id, memory.id);
      expect(entry?.rawEntry).toBe('kept through rotation');
      expect((await rotated.memory.getContext('alice', vault.id, memory.id))?.content).toBe(
        'context through rotation',
      );
      expect((await rotated.memory.searchEntries('alice', { query: 'rotation' })).length).toBe(1);
    } finally {
      rotated.close();
    }
  });
});
