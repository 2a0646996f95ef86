import type { MemoryStore } from '@patchbay/connector/ports';
import {
  builtInPromptLoader,
  createMemoryAgent,
  ensureMemory,
  memoryServerAgent,
  turnMemory,
} from '@patchbay/memory';
import { createOrchestrator } from '@patchbay/orchestrator';
import { runTurn } from '@patchbay/turn';
import { createScriptedModel } from '@patchbay/turn/testing';
import { describe, expect, it } from 'vitest';
import { freshHome, occurrences, occurrencesInStoreFiles, storeIn } from './security-helpers.js';

// Issue 33, items 1 and 2. A turn for bob through an adapter made for alice (a wiring mistake, or a
// multi-tenant app that caches adapters by the wrong key) must not write bob's words into alice's
// memory; a token said in a chat must be stored nowhere, returned by no tool, and nothing a person
// said may be readable in the database file without the key.

const token = `ghp_${'Zq8'.repeat(12)}`;
/** An ordinary word: redaction leaves it, so finding it in the file would mean the row is in clear. */
const marker = 'quokkamarmalade';

/** Counts every store write, with its arguments, as the memory server hands it to storage. */
function countingWrites(memory: MemoryStore) {
  const writes: { method: string; args: unknown[] }[] = [];
  const counted = new Proxy(memory, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (/^(add|put|create|forget)/.test(String(property)))
          writes.push({ method: String(property), args });
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { memory: counted, writes };
}

async function world() {
  const home = freshHome();
  const store = storeIn(home);
  const { memory, writes } = countingWrites(store.memory);
  const orchestrator = createOrchestrator({ statusSource: store });
  orchestrator.register(memoryServerAgent({ memory }));
  await orchestrator.start();
  const ids = await ensureMemory({ orchestrator, subject: 'alice' });
  writes.length = 0;
  return { home, store, orchestrator, writes, ids };
}

describe('memory is scoped by construction: the subject travels with every write', () => {
  it('a turn for bob through alice’s adapter writes 0 of bob’s messages into alice’s memory', async () => {
    const opened = await world();
    const memoryModel = createScriptedModel(() => ({
      toolCalls: [{ toolName: 'add_entry', input: { summary: 'The user said something.' } }],
    }));
    const agent = createMemoryAgent({
      model: memoryModel,
      orchestrator: opened.orchestrator,
      subject: 'alice',
      ...opened.ids,
      checkpointer: opened.store,
      prompts: builtInPromptLoader,
    });
    const alicesMemory = turnMemory({
      orchestrator: opened.orchestrator,
      subject: 'alice',
      ...opened.ids,
      agent,
      checkpointer: opened.store,
    });
    try {
      const result = await runTurn({
        model: createScriptedModel(['Noted.']),
        thread: 'bob-thread',
        message: `Bob here: my secret plan is ${marker}.`,
        subject: 'bob',
        orchestrator: opened.orchestrator,
        connectors: [],
        statusSource: opened.store,
        memory: alicesMemory,
      });
      const crossSubjectWrites = opened.writes.filter((write) => write.args[0] === 'alice').length;
      expect(crossSubjectWrites).toBe(0);
      const stored = await opened.store.memory.listEntries('alice', opened.ids.vaultId, opened.ids.memoryId);
      expect(stored).toHaveLength(0);
      expect(memoryModel.calls).toHaveLength(0);
      // Refused on read and on both writes, each with its line in the trace; the turn goes on.
      expect(result.reply).toBe('Noted.');
      expect(result.trace.memory).toMatchObject({ context: 'failed', recorded: 0 });
      expect(result.trace.memory?.errors).toHaveLength(3);
      expect(result.trace.memory?.errors.slice(1).every((line) => /another subject/.test(line))).toBe(true);
      // The adapter still records alice's own turn: the guard refuses only the other subject.
      await alicesMemory.record('alice', 'alice-thread', { role: 'user', content: 'I like tea.' });
      expect(
        await opened.store.memory.listEntries('alice', opened.ids.vaultId, opened.ids.memoryId),
      ).toHaveLength(1);
    } finally {
      await opened.orchestrator.stop();
    }
  });
});

describe('memory is secret-free: redacted before it is stored, sealed at rest', () => {
  it('a token in add_entry and put_context: 0 in what storage is handed, 0 returned, 0 in the file', async () => {
    const opened = await world();
    const { vaultId, memoryId } = opened.ids;
    const call = (tool: string, args: Record<string, unknown>) =>
      opened.orchestrator.execute(
        tool,
        { vault_id: vaultId, memory_id: memoryId, ...args },
        { subject: 'alice' },
      );
    try {
      const added = await call('add_entry', {
        raw_entry: `My GitHub token is ${token}, and my cat is called ${marker}.`,
        summary: `The user shared token ${token}.`,
        tags: { note: `Bearer ${token}` },
      });
      expect(added.ok).toBe(true);
      const entryId = (added.ok ? (added.data as { entry_id: string }) : { entry_id: '' }).entry_id;
      expect((await call('put_context', { content: `Token: ${token}. Cat: ${marker}.` })).ok).toBe(true);

      // What the tools handed to storage (the tool layer's redaction, whatever store is behind it).
      expect(occurrences(JSON.stringify(opened.writes), token)).toBe(0);
      // What any tool returns afterwards.
      const returned = await Promise.all([
        call('get_entry', { entry_id: entryId }),
        call('list_entries', {}),
        call('search_memories', { query: `cat token ${marker}` }),
        call('get_context', {}),
      ]);
      expect(returned.every((envelope) => envelope.ok)).toBe(true);
      const text = JSON.stringify(returned);
      expect(occurrences(text, token)).toBe(0);
      expect(occurrences(text, '[REDACTED]')).toBeGreaterThanOrEqual(4);
      // The entry is still useful: search finds it by its words, which come back opened.
      expect(occurrences(text, marker)).toBeGreaterThanOrEqual(3);

      // The store's own redaction, for callers that bypass the tools (CLI, apps, the agent's store).
      await opened.store.memory.addEntry('alice', vaultId, memoryId, {
        rawEntry: `direct ${token} ${marker}`,
        summary: `direct ${token}`,
        tags: { [token]: token },
      });
      await opened.store.memory.putContext('alice', vaultId, memoryId, `direct ${token} ${marker}`);
      const direct = JSON.stringify([
        await opened.store.memory.listEntries('alice', vaultId, memoryId),
        await opened.store.memory.listContexts('alice', vaultId, memoryId),
      ]);
      expect(occurrences(direct, token)).toBe(0);

      // At rest: neither the token nor an ordinary word of what was said is in the database,
      // WAL or shared-memory file (the rows are sealed with the store's key).
      expect(occurrencesInStoreFiles(opened.home, token)).toBe(0);
      expect(occurrencesInStoreFiles(opened.home, marker)).toBe(0);
    } finally {
      await opened.orchestrator.stop();
    }
  });

  it('an entry of 300,000 characters and an ever-growing context are refused with a clear error: 0 rows', async () => {
    const opened = await world();
    const { vaultId, memoryId } = opened.ids;
    const call = (tool: string, args: Record<string, unknown>) =>
      opened.orchestrator.execute(
        tool,
        { vault_id: vaultId, memory_id: memoryId, ...args },
        { subject: 'alice' },
      );
    try {
      const huge = await call('add_entry', { raw_entry: 'x'.repeat(300_000), summary: 'a file' });
      expect(huge).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
      expect(JSON.stringify(huge)).toMatch(/300,000 characters; the limit is 16,000/);
      const grown = await call('put_context', { content: 'fact. '.repeat(2_000) });
      expect(grown).toMatchObject({ ok: false, error_type: 'invalid_arguments' });
      expect(JSON.stringify(grown)).toMatch(/limit is 8,000\. Condense it/);
      expect(opened.writes).toHaveLength(0);
      // The store holds the same bounds for callers that bypass the tools.
      await expect(
        opened.store.memory.addEntry('alice', vaultId, memoryId, {
          rawEntry: 'x'.repeat(300_000),
          summary: 's',
        }),
      ).rejects.toThrow(/limit is 16,000/);
      await expect(
        opened.store.memory.putContext('alice', vaultId, memoryId, 'y'.repeat(8_001)),
      ).rejects.toThrow(/limit is 8,000/);
      expect(await opened.store.memory.listEntries('alice', vaultId, memoryId)).toHaveLength(0);
      expect(await opened.store.memory.getContext('alice', vaultId, memoryId)).toBeUndefined();
    } finally {
      await opened.orchestrator.stop();
    }
  });

  it('forget_entry deletes an entry, but only after a person approves: 0 deletions by a model alone', async () => {
    const opened = await world();
    const { vaultId, memoryId } = opened.ids;
    try {
      const entry = await opened.store.memory.addEntry('alice', vaultId, memoryId, {
        rawEntry: 'Something to forget.',
        summary: 'To forget',
      });
      const args = { vault_id: vaultId, memory_id: memoryId, entry_id: entry.id };
      const asked = await opened.orchestrator.execute('forget_entry', args, { subject: 'alice' });
      expect(asked).toMatchObject({ ok: false, error_type: 'approval_required' });
      expect(opened.writes.filter((write) => write.method === 'forgetEntry')).toHaveLength(0);
      // bob cannot forget alice's entry by naming its ids: not found, nothing deleted.
      expect(
        await opened.store.memory.forgetEntry('bob', vaultId, memoryId, entry.id).catch(() => false),
      ).toBe(false);
      expect(await opened.store.memory.getEntry('alice', vaultId, memoryId, entry.id)).toBeDefined();
      expect(await opened.store.memory.forgetEntry('alice', vaultId, memoryId, entry.id)).toBe(true);
      expect(await opened.store.memory.getEntry('alice', vaultId, memoryId, entry.id)).toBeUndefined();
    } finally {
      await opened.orchestrator.stop();
    }
  });
});
