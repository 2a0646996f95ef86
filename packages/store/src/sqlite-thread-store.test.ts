import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { defineTool } from '@patchbay/connector';
import type { ThreadStore } from '@patchbay/connector/ports';
import { PatchbayError, success } from '@patchbay/envelope';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createFixtureConnector } from '@patchbay/testing';
import { createInMemoryThreadStore, runTurn, type TurnResult } from '@patchbay/turn';
import { toLanguageModelPrompt } from '@patchbay/turn/internal';
import { createScriptedModel } from '@patchbay/turn/testing';
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStore } from './open-store.js';
import type { PatchbayStore } from './store.js';

const secretKey = Buffer.alloc(32, 3).toString('base64');
const homes: string[] = [];
const stores: PatchbayStore[] = [];

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-threads-'));
  homes.push(home);
  return home;
}

function open(home: string): PatchbayStore {
  const store = openStore({ home, secretKey, env: {} });
  stores.push(store);
  return store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const stampedUser: ModelMessage = {
  role: 'user',
  content: [
    { type: 'text', text: '[2026-11-21T15:00:00Z]' },
    { type: 'text', text: 'What is open in WEB?' },
  ],
};
const toolCall: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: '[2026-11-21T15:00:01Z]' },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'tracker_list_issues', input: { project: 'WEB' } },
  ],
};
const toolResult: ModelMessage = {
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: 'call-1',
      toolName: 'tracker_list_issues',
      output: { type: 'json', value: { ok: true, data: [{ key: 'WEB-7', title: 'Flaky login' }] } },
    },
  ],
};

describe('store.threads', () => {
  it('reads back what was appended, in order and unchanged, across a reopen', async () => {
    const home = freshHome();
    const store = open(home);
    expect(await store.threads.load('t1')).toBeUndefined();
    await store.threads.append('t1', [stampedUser, toolCall]);
    await store.threads.append('t1', [toolResult]);
    await store.threads.append('other', [stampedUser]);
    store.close();

    const reopened = open(home);
    const thread = await reopened.threads.load('t1');
    expect(thread).toEqual({ id: 't1', messages: [stampedUser, toolCall, toolResult] });
    expect(JSON.stringify(thread?.messages)).toBe(JSON.stringify([stampedUser, toolCall, toolResult]));
    expect((await reopened.threads.load('other'))?.messages).toHaveLength(1);
  });

  it('records ordinal, role and the stamped send time of every message', async () => {
    const home = freshHome();
    const store = open(home);
    await store.threads.append('t1', [stampedUser, toolCall, toolResult]);
    const database = new DatabaseSync(join(home, 'patchbay.db'));
    const rows = database
      .prepare('SELECT ordinal, role, sent_at, appended_at FROM threads WHERE thread_id = ? ORDER BY ordinal')
      .all('t1') as { ordinal: number; role: string; sent_at: string; appended_at: string }[];
    database.close();
    expect(rows.map(({ ordinal, role }) => ({ ordinal, role }))).toEqual([
      { ordinal: 0, role: 'user' },
      { ordinal: 1, role: 'assistant' },
      { ordinal: 2, role: 'tool' },
    ]);
    expect(rows[0]!.sent_at).toBe('2026-11-21T15:00:00Z');
    expect(rows[1]!.sent_at).toBe('2026-11-21T15:00:01Z');
    // A tool message carries no stamp of its own: it is dated by its append.
    expect(rows[2]!.sent_at).toBe(rows[2]!.appended_at);
  });

  it('keeps bytes and URLs of file parts, and never revives a tool result that looks like a tag', async () => {
    const store = open(freshHome());
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const withFiles: ModelMessage = {
      role: 'user',
      content: [
        { type: 'image', image: bytes, mediaType: 'image/png' },
        { type: 'file', data: new URL('https://files.test/report.pdf'), mediaType: 'application/pdf' },
        { type: 'file', data: Buffer.from('hello'), mediaType: 'text/plain' },
      ],
    };
    const lookalike: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-9',
          toolName: 'echo',
          output: { type: 'json', value: { $patchbay: 'url', href: 'https://not.a/url' } },
        },
      ],
    };
    await store.threads.append('files', [withFiles, lookalike]);
    const [files, tool] = (await store.threads.load('files'))!.messages as [ModelMessage, ModelMessage];
    const parts = files.content as { image?: unknown; data?: unknown }[];
    expect(parts[0]!.image).toBeInstanceOf(Uint8Array);
    expect([...(parts[0]!.image as Uint8Array)]).toEqual([0, 1, 2, 250, 255]);
    expect(parts[1]!.data).toBeInstanceOf(URL);
    expect(String(parts[1]!.data)).toBe('https://files.test/report.pdf');
    expect(Buffer.from(parts[2]!.data as Uint8Array).toString()).toBe('hello');
    expect(tool).toEqual(lookalike);
  });

  it('refuses what is not a message, and writes nothing of a batch that holds one', async () => {
    const store = open(freshHome());
    await expect(
      store.threads.append('t1', [stampedUser, { content: 'no role' } as unknown as ModelMessage]),
    ).rejects.toSatisfy((error) => PatchbayError.isInstance(error) && error.code === 'invalid_arguments');
    expect(await store.threads.load('t1')).toBeUndefined();
    await expect(store.threads.load('')).rejects.toThrow(/threadId/);
  });

  it('bounds a row: a 5 MB tool result is cut to the limit with a note; other oversized messages are refused', async () => {
    const home = freshHome();
    const store = openStore({ home, secretKey, env: {} });
    stores.push(store);
    const huge = 'x'.repeat(5 * 1024 * 1024);
    const bigResult: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-1',
          toolName: 'archive_read',
          output: { type: 'json', value: { ok: true, data: huge } },
        },
        toolResult.content[0]!,
      ],
    };
    await store.threads.append('t1', [stampedUser, bigResult]);
    const database = new DatabaseSync(store.location, { readOnly: true });
    try {
      const lengths = database
        .prepare('SELECT length(message) AS length FROM threads WHERE thread_id = ?')
        .all('t1') as { length: number }[];
      expect(Math.max(...lengths.map((row) => row.length))).toBeLessThanOrEqual(1_000_000);
    } finally {
      database.close();
    }
    const [, stored] = (await store.threads.load('t1'))!.messages as ModelMessage[];
    const [cut, small] = (stored as { content: { output: { type: string; value: unknown } }[] }).content;
    expect(cut!.output.type).toBe('text');
    expect(String(cut!.output.value)).toMatch(
      /… \[result truncated: 5,242,9\d\d characters, showing the first [\d,]+\]$/,
    );
    // A result that fits is kept as it was.
    expect(small).toEqual(toolResult.content[0]);

    const strict = openStore({ home, secretKey, env: {}, maxThreadMessageChars: 10_000 });
    stores.push(strict);
    await expect(
      strict.threads.append('t2', [{ role: 'user', content: 'y'.repeat(20_000) }]),
    ).rejects.toSatisfy((error) => PatchbayError.isInstance(error) && error.code === 'message_too_large');
    expect(await strict.threads.load('t2')).toBeUndefined();
  });

  it('deletes a thread', async () => {
    const store = open(freshHome());
    await store.threads.append('t1', [stampedUser]);
    expect(await store.threads.delete('t1')).toBe(true);
    expect(await store.threads.load('t1')).toBeUndefined();
    expect(await store.threads.delete('t1')).toBe(false);
  });
});

const tracker = createFixtureConnector({
  id: 'tracker',
  tools: [
    defineTool({
      name: 'tracker_list_issues',
      description: 'Lists the open issues of a project.',
      input: z.object({ project: z.string().describe('Project key') }),
      effect: 'read',
      execute: async (input) => success([{ key: `${input.project}-7`, title: 'Flaky login' }]),
    }),
  ],
});

/** Two turns of one conversation; the store (and its thread) is whatever `threadStoreFor` opens per turn. */
async function twoTurns(
  threadStoreFor: (turn: number) => { threads: ThreadStore; statusSource: PatchbayStore | undefined },
) {
  const model = createScriptedModel([
    { toolCalls: [{ toolName: 'tracker_list_issues', input: { project: 'WEB' } }] },
    'WEB has one open issue: WEB-7 Flaky login.',
    'It was reported as flaky, so start with the login retry logic.',
  ]);
  const results = [];
  for (const [turn, message, time] of [
    [1, 'What is open in WEB?', '2026-11-21T15:00:00Z'],
    [2, 'Where should I start?', '2026-11-21T15:05:00Z'],
  ] as const) {
    const { threads, statusSource } = threadStoreFor(turn);
    const source = statusSource ?? open(freshHome());
    await source.saveConnection('ana', {
      connectorId: 'tracker',
      credentials: { token: 'tracker-secret' },
      scopes: [],
    });
    const orchestrator = createOrchestrator({ statusSource: source, connectors: [tracker] });
    await orchestrator.start();
    results.push(
      await runTurn({
        model,
        thread: 'support-42',
        message,
        subject: 'ana',
        orchestrator,
        connectors: [tracker],
        statusSource: source,
        threadStore: threads,
        now: () => new Date(time),
      }),
    );
    await orchestrator.stop();
  }
  return { model, results };
}

describe('runTurn with the SQLite thread store', () => {
  it('continues a conversation after the store is reopened, with the same history bytes in the prompt', async () => {
    const home = freshHome();
    const sqlite = await twoTurns(() => {
      const store = open(home); // a new handle per turn, as a restarted process would have
      return { threads: store.threads, statusSource: store };
    });
    const [first, second] = sqlite.results as [TurnResult, TurnResult];
    expect(second.reply).toBe('It was reported as flaky, so start with the login retry logic.');

    const stored = await open(home).threads.load('support-42');
    expect(JSON.stringify(stored?.messages)).toBe(JSON.stringify(second.thread.messages));
    expect(stored?.messages.slice(0, first.thread.messages.length)).toEqual(first.thread.messages);
    expect(stored?.messages).toHaveLength(first.thread.messages.length + 2);

    // Turn 2's prompt: system, then turn 1's messages exactly as stamped in turn 1, then the new message.
    const turnTwoPrompt = sqlite.model.prompts[2]!;
    const history = toLanguageModelPrompt(first.thread.messages);
    expect(JSON.stringify(turnTwoPrompt.slice(1, 1 + history.length))).toBe(JSON.stringify(history));
    expect(JSON.stringify(turnTwoPrompt)).toContain('[2026-11-21T15:00:00Z]');
    expect(JSON.stringify(turnTwoPrompt)).toContain('WEB-7');

    // And the same bytes as with the orchestrator's in-memory store: SQLite changes nothing.
    const memory = createInMemoryThreadStore();
    const inMemory = await twoTurns(() => ({ threads: memory, statusSource: undefined }));
    expect(JSON.stringify(sqlite.model.prompts)).toBe(JSON.stringify(inMemory.model.prompts));
  });
});
