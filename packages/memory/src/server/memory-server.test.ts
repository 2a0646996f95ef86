import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { afterEach, describe, expect, it } from 'vitest';
import { removeHome } from '../test-kit.js';
import { createMemoryServer } from './memory-server.js';
import { memoryToolNames } from './memory-tools.js';
import { rulePromptNames, rulePrompts } from './rule-prompts.js';
import { serveMemoryHttp } from './serve-http.js';

const opened: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

function freshStore(): PatchbayStore {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-memory-server-'));
  const store = openStore({ home, secretKey: Buffer.alloc(32, 4).toString('base64'), env: {} });
  opened.push({ close: () => removeHome(home) }, store);
  return store;
}

/** A real SDK client connected in-process to a memory server for `subject`. */
async function clientFor(store: PatchbayStore, subject: string): Promise<Client> {
  const server = createMemoryServer({ memory: store.memory, subject });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  opened.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  // biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary JSON results by path.
  return { isError: result.isError === true, text, data: result.structuredContent as Record<string, any> };
}

describe('the memory server, driven by the MCP SDK client', () => {
  it('serves Mycelian’s twelve tool names and the three rule prompts', async () => {
    const client = await clientFor(freshStore(), 'alice');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...memoryToolNames].sort());
    const addEntry = tools.find((tool) => tool.name === 'add_entry')!;
    expect(Object.keys(addEntry.inputSchema.properties ?? {}).sort()).toEqual(
      ['memory_id', 'raw_entry', 'summary', 'tags', 'vault_id'].sort(),
    );
    expect(tools.find((tool) => tool.name === 'list_entries')!.inputSchema.properties).toHaveProperty(
      'limit',
    );
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([...rulePromptNames].sort());
    const context = await client.getPrompt({ name: 'context_prompt' });
    expect(context.messages[0]?.content).toEqual({ type: 'text', text: rulePrompts.context_prompt.text });
  });

  it('runs a whole memory life cycle: vault, memory, entries, versioned context, ranked search', async () => {
    const client = await clientFor(freshStore(), 'alice');
    const vault = await call(client, 'create_vault', { title: 'assistant' });
    const vaultId = vault.data.vault_id as string;
    expect((await call(client, 'list_vaults')).data.vaults).toHaveLength(1);
    const memory = await call(client, 'create_memory_in_vault', {
      vault_id: vaultId,
      title: 'alice-chat',
      memory_type: 'CHAT',
    });
    const memoryId = memory.data.memory_id as string;
    expect((await call(client, 'get_memory', { vault_id: vaultId, memory_id: memoryId })).data.title).toBe(
      'alice-chat',
    );
    expect((await call(client, 'list_memories', { vault_id: vaultId })).data.memories).toHaveLength(1);

    const ids = { vault_id: vaultId, memory_id: memoryId };
    const added = await call(client, 'add_entry', {
      ...ids,
      raw_entry: 'I keep hitting the cold start problem with new users.',
      summary: 'The user struggles with the recommender cold start problem.',
      tags: { role: 'user', topic: 'recommenders' },
    });
    expect(added.data.status).toBe('stored');
    await call(client, 'add_entry', {
      ...ids,
      raw_entry: 'Lunch at noon?',
      summary: 'The user asked about lunch.',
    });
    const listed = await call(client, 'list_entries', { ...ids, limit: 1 });
    expect(listed.data.entries.map((entry: { raw_entry: string }) => entry.raw_entry)).toEqual([
      'Lunch at noon?',
    ]);
    const entry = await call(client, 'get_entry', { ...ids, entry_id: added.data.entry_id });
    expect(entry.data.tags).toEqual({ role: 'user', topic: 'recommenders' });

    expect((await call(client, 'get_context', ids)).data.context).toBeNull();
    await call(client, 'put_context', { ...ids, content: 'v1' });
    expect((await call(client, 'put_context', { ...ids, content: 'v2' })).data.version).toBe(2);
    expect((await call(client, 'get_context', ids)).data.context.content).toBe('v2');
    expect((await call(client, 'await_consistency', { memory_id: memoryId })).data.status).toBe('consistent');

    const found = await call(client, 'search_memories', { memory_id: memoryId, query: 'cold start users' });
    expect(found.data.entries[0].entry_id).toBe(added.data.entry_id);
    expect(found.data.latest_context).toBe('v2');
  });

  it('answers typed errors the model can read, and keeps subjects apart by the server, not the arguments', async () => {
    const store = freshStore();
    const alice = await clientFor(store, 'alice');
    const bob = await clientFor(store, 'bob');
    const vaultId = (await call(alice, 'create_vault', { title: 'private' })).data.vault_id;
    const memoryId = (
      await call(alice, 'create_memory_in_vault', { vault_id: vaultId, title: 'diary', memory_type: 'NOTES' })
    ).data.memory_id;
    await call(alice, 'add_entry', {
      vault_id: vaultId,
      memory_id: memoryId,
      raw_entry: 'zebra',
      summary: 'zebra',
    });

    // Bob holds every id of Alice's and even names her as user_id, as Mycelian's older schema had it.
    const ids = { vault_id: vaultId, memory_id: memoryId, user_id: 'alice' };
    expect((await call(bob, 'list_vaults', { user_id: 'alice' })).data.vaults).toEqual([]);
    const listed = await call(bob, 'list_entries', ids);
    expect(listed).toMatchObject({ isError: true, text: expect.stringMatching(/^not_found: /) });
    expect((await call(bob, 'get_context', ids)).isError).toBe(true);
    expect((await call(bob, 'put_context', { ...ids, content: 'overwritten' })).isError).toBe(true);
    expect(
      (await call(bob, 'search_memories', { memory_id: memoryId, query: 'zebra' })).data.entries,
    ).toEqual([]);
    expect((await call(alice, 'list_entries', { vault_id: vaultId, memory_id: memoryId })).data.count).toBe(
      1,
    );
    expect((await call(alice, 'create_vault', { title: 'private' })).text).toMatch(/^conflict: /);
  });
});

describe('the memory server over streamable HTTP', () => {
  it('serves an SDK client at its URL, one session per client', async () => {
    const store = freshStore();
    const served = await serveMemoryHttp({ memory: store.memory, subject: 'alice' });
    opened.push(served);
    const client = new Client({ name: 'sdk-http-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    opened.push(client);
    const created = await call(client, 'create_vault', { title: 'over-http' });
    expect(created.isError).toBe(false);
    expect((await store.memory.listVaults('alice')).map((vault) => vault.title)).toEqual(['over-http']);
    expect(served.sessionCount()).toBe(1);
    expect((await client.listPrompts()).prompts).toHaveLength(3);
  });

  it('refuses a request whose Host is not the listener (DNS rebinding)', async () => {
    const served = await serveMemoryHttp({ memory: freshStore().memory, subject: 'alice' });
    opened.push(served);
    // fetch drops a Host header it is given; node:http sends it as a rebinding page's request would.
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      });
      const sent = request(
        served.url,
        {
          method: 'POST',
          headers: {
            host: `attacker.example:${served.port}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
    expect(status).toBe(403);
    expect(served.sessionCount()).toBe(0);
  });
});

describe('the memory server as an orchestrator agent', () => {
  it('serves nothing once shut down, and serves again after initialize', async () => {
    const { countingMemory } = await import('../test-kit.js');
    const { memoryServerAgent } = await import('./in-process-agent.js');
    const { memory, calls } = countingMemory(freshStore().memory);
    const agent = memoryServerAgent({ memory });
    const context = { subject: 'alice', signal: new AbortController().signal } as Parameters<
      typeof agent.execute
    >[2];
    await agent.initialize?.();
    expect((await agent.execute('list_vaults', {}, context)).ok).toBe(true);
    const before = calls.length;

    await agent.shutdown?.();
    const refused = await agent.execute('create_vault', { title: 'after shutdown' }, context);
    expect(refused).toMatchObject({ ok: false, error_type: 'tool_unavailable', connector: 'memory' });
    await expect(agent.clientFor('alice')).rejects.toThrow(/stopped/);
    // Nothing reached the store after the shutdown: no session was reopened behind the gate's back.
    expect(calls.length).toBe(before);

    await agent.initialize?.();
    expect((await agent.execute('list_vaults', {}, context)).ok).toBe(true);
    await agent.shutdown?.();
  });
});
