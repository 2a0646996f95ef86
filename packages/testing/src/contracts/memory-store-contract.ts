import type { MemoryStore } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, together, useHarness } from './contract-harness.js';

/** A {@link MemoryStore} under test. */
export interface MemoryStoreHarness extends HarnessLifecycle {
  /** The implementation under test, empty. */
  memory: MemoryStore;
}

async function codeOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    return PatchbayError.isInstance(error) ? error.code : 'not a PatchbayError';
  }
}

/** A vault and memory of `subject`, ready for entries. */
async function seeded(memory: MemoryStore, subject: string) {
  const vault = await memory.createVault(subject, { title: 'assistant', description: 'chat memories' });
  const record = await memory.createMemory(subject, vault.id, { title: 'alice-chat', memoryType: 'CHAT' });
  return { vaultId: vault.id, memoryId: record.id };
}

/**
 * Registers the contract every {@link MemoryStore} meets: vaults and memories by subject, entries
 * append-only and newest first, contexts versioned with the last write winning, ranked full-text
 * search, and no subject ever reaching another's rows. `setup` runs before each test.
 */
export function describeMemoryStoreContract(name: string, setup: () => Awaitable<MemoryStoreHarness>): void {
  describe(`MemoryStore contract: ${name}`, () => {
    const harness = useHarness(setup);

    it('creates and lists vaults and memories, refusing duplicate titles', async () => {
      const { memory } = harness();
      const { vaultId, memoryId } = await seeded(memory, 'alice');
      expect((await memory.listVaults('alice')).map((vault) => vault.id)).toEqual([vaultId]);
      expect(await memory.getVault('alice', vaultId)).toMatchObject({ title: 'assistant' });
      expect(await memory.getMemory('alice', vaultId, memoryId)).toMatchObject({
        id: memoryId,
        vaultId,
        title: 'alice-chat',
        memoryType: 'CHAT',
      });
      expect((await memory.listMemories('alice', vaultId)).map((record) => record.id)).toEqual([memoryId]);
      expect(await codeOf(memory.createVault('alice', { title: 'assistant' }))).toBe('conflict');
      expect(
        await codeOf(memory.createMemory('alice', vaultId, { title: 'alice-chat', memoryType: 'CHAT' })),
      ).toBe('conflict');
      expect(
        await codeOf(memory.createMemory('alice', 'no-such-vault', { title: 'x', memoryType: 'CHAT' })),
      ).toBe('not_found');
    });

    it('appends entries and lists them newest first, bounded by limit', async () => {
      const { memory } = harness();
      const { vaultId, memoryId } = await seeded(memory, 'alice');
      const added = [];
      for (let index = 0; index < 12; index += 1) {
        added.push(
          await memory.addEntry('alice', vaultId, memoryId, {
            rawEntry: `message ${index}`,
            summary: `summary ${index}`,
            tags: { role: index % 2 === 0 ? 'user' : 'assistant' },
          }),
        );
      }
      const listed = await memory.listEntries('alice', vaultId, memoryId, { limit: 10 });
      expect(listed.map((entry) => entry.rawEntry)).toEqual(
        added
          .slice(2)
          .reverse()
          .map((entry) => entry.rawEntry),
      );
      expect(await memory.getEntry('alice', vaultId, memoryId, added[3]!.id)).toEqual(added[3]);
      expect(added[0]!.tags).toEqual({ role: 'user' });
    });

    it('keeps every entry when many are added at once', async () => {
      const { memory } = harness();
      const { vaultId, memoryId } = await seeded(memory, 'alice');
      await together(20, (index) =>
        memory.addEntry('alice', vaultId, memoryId, { rawEntry: `parallel ${index}`, summary: `s ${index}` }),
      );
      expect(await memory.listEntries('alice', vaultId, memoryId, { limit: 100 })).toHaveLength(20);
    });

    it('versions contexts: the last write wins and earlier ones are kept', async () => {
      const { memory } = harness();
      const { vaultId, memoryId } = await seeded(memory, 'alice');
      expect(await memory.getContext('alice', vaultId, memoryId)).toBeUndefined();
      await memory.putContext('alice', vaultId, memoryId, 'first');
      const second = await memory.putContext('alice', vaultId, memoryId, 'second');
      expect(second.version).toBe(2);
      expect(await memory.getContext('alice', vaultId, memoryId)).toMatchObject({
        content: 'second',
        version: 2,
      });
      expect(
        (await memory.listContexts('alice', vaultId, memoryId)).map((context) => context.content),
      ).toEqual(['second', 'first']);
    });

    it('ranks search hits by relevance and treats query syntax as words', async () => {
      const { memory } = harness();
      const { vaultId, memoryId } = await seeded(memory, 'alice');
      await memory.addEntry('alice', vaultId, memoryId, {
        rawEntry: 'We talked about lunch.',
        summary: 'Lunch plans',
      });
      const best = await memory.addEntry('alice', vaultId, memoryId, {
        rawEntry: 'The recommender has a cold start problem for new users; cold start hurts retention.',
        summary: 'Cold start problem in the recommender',
      });
      await memory.addEntry('alice', vaultId, memoryId, {
        rawEntry: 'It was a cold morning.',
        summary: 'Weather small talk',
      });
      const hits = await memory.searchEntries('alice', { memoryId, query: 'cold start recommender' });
      expect(hits[0]?.entry.id).toBe(best.id);
      expect(hits.map((hit) => hit.entry.summary)).not.toContain('Lunch plans');
      expect(hits[0]!.score).toBeGreaterThanOrEqual(hits.at(-1)!.score);
      // Operators and quotes from a model must not break the query or widen it.
      expect(
        await memory.searchEntries('alice', { memoryId, query: '"cold" AND NEAR(* OR' }),
      ).not.toHaveLength(0);
      expect(await memory.searchEntries('alice', { memoryId, query: '   ' })).toEqual([]);
    });

    it('keeps each subject’s vaults, memories, entries, contexts and search hits to that subject', async () => {
      const { memory } = harness();
      const alice = await seeded(memory, 'alice');
      const entry = await memory.addEntry('alice', alice.vaultId, alice.memoryId, {
        rawEntry: 'alice secret plan zebra',
        summary: 'zebra plan',
      });
      await memory.putContext('alice', alice.vaultId, alice.memoryId, 'alice context');
      // Bob knows every id of Alice's and tries each door.
      expect(await memory.listVaults('bob')).toEqual([]);
      expect(await memory.getVault('bob', alice.vaultId)).toBeUndefined();
      expect(await memory.getMemory('bob', alice.vaultId, alice.memoryId)).toBeUndefined();
      expect(await memory.getEntry('bob', alice.vaultId, alice.memoryId, entry.id)).toBeUndefined();
      expect(await codeOf(memory.listMemories('bob', alice.vaultId))).toBe('not_found');
      expect(await codeOf(memory.listEntries('bob', alice.vaultId, alice.memoryId))).toBe('not_found');
      expect(await codeOf(memory.getContext('bob', alice.vaultId, alice.memoryId))).toBe('not_found');
      expect(await codeOf(memory.putContext('bob', alice.vaultId, alice.memoryId, 'overwrite'))).toBe(
        'not_found',
      );
      expect(
        await codeOf(memory.addEntry('bob', alice.vaultId, alice.memoryId, { rawEntry: 'x', summary: 'x' })),
      ).toBe('not_found');
      expect(
        await codeOf(memory.createMemory('bob', alice.vaultId, { title: 'intruder', memoryType: 'CHAT' })),
      ).toBe('not_found');
      expect(await memory.searchEntries('bob', { query: 'zebra' })).toEqual([]);
      expect(await memory.searchEntries('bob', { memoryId: alice.memoryId, query: 'zebra' })).toEqual([]);
      // Bob may use the same titles; Alice's rows stay as they were.
      await seeded(memory, 'bob');
      expect(await memory.getContext('alice', alice.vaultId, alice.memoryId)).toMatchObject({
        content: 'alice context',
        version: 1,
      });
      expect(await memory.listEntries('alice', alice.vaultId, alice.memoryId)).toHaveLength(1);
    });
  });
}
