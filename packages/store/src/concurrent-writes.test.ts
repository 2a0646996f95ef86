import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from './open-store.js';

/**
 * Each test starts two node writer processes that each make a few hundred writes: ~1.5 s quiet, up
 * to 4 s measured with both cores busy and another suite running. 60 s is 15× that, so only a hang
 * (a writer that never finishes) fails it; the writers themselves get no shorter limit.
 */
const writersTimeoutMs = 60_000;
vi.setConfig({ testTimeout: writersTimeoutMs });

const run = promisify(execFile);
const writer = join(import.meta.dirname, '../test/concurrent-writer.mjs');
const secretKey = Buffer.alloc(32, 7).toString('base64');
const homes: string[] = [];

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-store-concurrency-'));
  homes.push(home);
  return home;
}

async function writerProcess(
  home: string,
  writerId: string,
  count: number,
  mode: 'write' | 'approve' | 'thread',
) {
  const { stdout } = await run(process.execPath, [writer, home, writerId, String(count), mode], {
    env: { ...process.env, PATCHBAY_SECRET_KEY: secretKey },
  });
  return JSON.parse(stdout) as { won: number[] };
}

beforeAll(() => {
  if (!existsSync(join(import.meta.dirname, '../dist/index.js'))) {
    throw new Error('Build @patchbay/store first (the test script runs tsup before vitest).');
  }
});

afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('two processes writing at once', () => {
  it('keeps every row of both writers', async () => {
    const home = freshHome();
    const count = 150;
    await Promise.all([writerProcess(home, 'a', count, 'write'), writerProcess(home, 'b', count, 'write')]);
    const store = openStore({ home, secretKey });
    try {
      for (const writerId of ['a', 'b']) {
        const connections = await store.listConnections(`subject-${writerId}`);
        expect(connections).toHaveLength(count);
        const proposals = await store.proposals.list({ subject: `subject-${writerId}` });
        expect(proposals).toHaveLength(count);
        const one = await store.getConnection(`subject-${writerId}`, 'c42');
        expect(one?.credentials).toEqual({ token: `token-${writerId}-42` });
      }
      const audit = await store.audit.list({ limit: 10_000 });
      expect(audit).toHaveLength(2 * count);
      expect(new Set(audit.map((record) => record.seq)).size).toBe(2 * count);
    } finally {
      store.close();
    }
  });

  it('appends to one thread from two processes in one total order, losing nothing', async () => {
    const home = freshHome();
    const count = 150;
    const batchSize = 10; // as in test/concurrent-writer.mjs
    await Promise.all([writerProcess(home, 'a', count, 'thread'), writerProcess(home, 'b', count, 'thread')]);
    const store = openStore({ home, secretKey });
    try {
      const texts = (await store.threads.load('shared-thread'))!.messages.map(
        (message) => message.content as string,
      );
      expect(texts).toHaveLength(2 * count * batchSize);
      // Every append is one contiguous run, in its own order.
      for (let position = 0; position < texts.length; position += batchSize) {
        const [writerId, index] = texts[position]!.split(':');
        expect(texts.slice(position, position + batchSize)).toEqual(
          Array.from({ length: batchSize }, (_, part) => `${writerId}:${index}:${part}`),
        );
      }
      // Each writer's appends keep the order it made them in.
      for (const writerId of ['a', 'b']) {
        const firsts = texts.filter((text) => text.startsWith(`${writerId}:`) && text.endsWith(':0'));
        expect(firsts).toEqual(Array.from({ length: count }, (_, index) => `${writerId}:${index}:0`));
      }
    } finally {
      store.close();
    }
  });

  it('lets exactly one process win each approval', async () => {
    const home = freshHome();
    const count = 60;
    const store = openStore({ home, secretKey });
    for (let index = 0; index < count; index += 1) {
      await store.proposals.create({
        id: `prop_shared_${index}`,
        subject: 'alice',
        tool: 'demo_delete',
        args: { index },
        argsHash: 'hash',
        createdAt: new Date().toISOString(),
        state: 'pending',
      });
    }
    const [first, second] = await Promise.all([
      writerProcess(home, 'a', count, 'approve'),
      writerProcess(home, 'b', count, 'approve'),
    ]);
    const winners = [...first.won, ...second.won].sort((x, y) => x - y);
    expect(winners).toEqual(Array.from({ length: count }, (_, index) => index));
    const approved = await store.proposals.list({ state: 'approved' });
    expect(approved).toHaveLength(count);
    store.close();
  });
});
