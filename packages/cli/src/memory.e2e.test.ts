import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliBinary, e2eTimeoutMs, ensureBuilt, runPatchbay } from '../test-fixtures/run-patchbay.js';

// Every test here starts CLI processes: see e2eTimeoutMs for the budget.
vi.setConfig({ testTimeout: e2eTimeoutMs, hookTimeout: e2eTimeoutMs });

const secretKey = Buffer.alloc(32, 8).toString('base64');
const home = mkdtempSync(join(tmpdir(), 'patchbay-memory-cli-'));
const env = { PATCHBAY_SECRET_KEY: secretKey };
let memoryId = '';

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as Record<string, string>;
}

describe('patchbay memory', () => {
  it('serve: an SDK client fills alice’s memory over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBinary, '--home', home, '--user', 'alice', 'memory', 'serve'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
      cwd: tmpdir(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'memory-e2e', version: '1.0.0' });
    await client.connect(transport, { timeout: e2eTimeoutMs });
    try {
      // Mycelian's twelve tools and forget_entry.
      expect((await client.listTools()).tools).toHaveLength(13);
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('summary_prompt');
      const { vault_id } = await call(client, 'create_vault', { title: 'assistant' });
      const created = await call(client, 'create_memory_in_vault', {
        vault_id,
        title: 'alice-chat',
        memory_type: 'CHAT',
      });
      memoryId = String(created.memory_id);
      const ids = { vault_id, memory_id: memoryId };
      await call(client, 'add_entry', {
        ...ids,
        raw_entry: 'Our recommender has a cold start problem.',
        summary: 'The user reported a cold start problem in the recommender.',
        tags: { role: 'user' },
      });
      await call(client, 'add_entry', {
        ...ids,
        raw_entry: 'Lunch?',
        summary: 'The user asked about lunch.',
      });
      await call(client, 'put_context', { ...ids, content: 'Alice works on a recommender.' });
    } finally {
      await client.close();
    }
  });

  it('list, show and search read it back, as tables and as JSON', async () => {
    const listed = await runPatchbay(['--home', home, '--user', 'alice', 'memory', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ memory_id: memoryId, memory: 'alice-chat', context_version: 1 }),
    ]);
    const shown = await runPatchbay(['--home', home, '--user', 'alice', 'memory', 'show', memoryId], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Alice works on a recommender.');
    expect(shown.stdout).toContain('The user asked about lunch.');
    const found = await runPatchbay(
      ['--home', home, '--user', 'alice', 'memory', 'search', memoryId, 'cold start', '--json'],
      env,
    );
    expect(JSON.parse(found.stdout)[0].summary).toMatch(/cold start/);
  });

  it('shows nothing of alice’s memory to another user, and explains bad usage', async () => {
    const other = await runPatchbay(['--home', home, '--user', 'bob', 'memory', 'show', memoryId], env);
    expect(other.code).toBe(1);
    expect(other.stdout).not.toContain('recommender');
    expect(other.stderr).toMatch(/No memory/);
    const bobList = await runPatchbay(['--home', home, '--user', 'bob', 'memory', 'list', '--json'], env);
    expect(JSON.parse(bobList.stdout)).toEqual([]);
    const bad = await runPatchbay(['--home', home, 'memory', 'erase'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/serve, list, show, search, forget/);
  });

  it('forget deletes one entry, then the whole memory; bob can forget nothing of alice’s', async () => {
    const alice = ['--home', home, '--user', 'alice', 'memory'];
    const shown = await runPatchbay([...alice, 'show', memoryId, '--json'], env);
    const entries = JSON.parse(shown.stdout).entries as { entry_id: string; summary: string }[];
    const lunch = entries.find((entry) => /lunch/.test(entry.summary))!;
    const byBob = await runPatchbay(
      ['--home', home, '--user', 'bob', 'memory', 'forget', memoryId, lunch.entry_id],
      env,
    );
    expect(byBob.code).toBe(1);
    expect(byBob.stderr).toMatch(/No memory/);
    const noEntry = await runPatchbay([...alice, 'forget', memoryId], env);
    expect(noEntry.code).toBe(2);
    expect(noEntry.stderr).toMatch(/needs an entry id/);
    const forgot = await runPatchbay([...alice, 'forget', memoryId, lunch.entry_id], env);
    expect(forgot.code).toBe(0);
    expect(forgot.stdout).toContain(`Forgot entry ${lunch.entry_id}`);
    const after = JSON.parse((await runPatchbay([...alice, 'show', memoryId, '--json'], env)).stdout);
    expect(after.entries.map((entry: { entry_id: string }) => entry.entry_id)).not.toContain(lunch.entry_id);
    expect(after.entries).toHaveLength(entries.length - 1);
    const again = await runPatchbay([...alice, 'forget', memoryId, lunch.entry_id], env);
    expect(again.code).toBe(1);
    const all = await runPatchbay([...alice, 'forget', memoryId, '--all', '--json'], env);
    expect(JSON.parse(all.stdout)).toEqual({
      memory_id: memoryId,
      forgotten: true,
      entries: entries.length - 1,
      contexts: 1,
    });
    const listed = await runPatchbay([...alice, 'list', '--json'], env);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });
});
