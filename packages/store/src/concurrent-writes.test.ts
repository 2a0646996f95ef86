import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshSchema, postgresAvailable } from '../test/postgres-server.js';
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
const approver = join(import.meta.dirname, '../test/concurrent-approver.mjs');
const secretKey = Buffer.alloc(32, 7).toString('base64');
const homes: string[] = [];

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-store-concurrency-'));
  homes.push(home);
  return home;
}

/**
 * The same races on both stores: a SQLite file shared by the processes, and one Postgres schema
 * (fresh per test) that the child processes reach through PATCHBAY_DATABASE_URL.
 */
const backends = [
  { name: 'SQLite', available: true, database: () => ({}) as NodeJS.ProcessEnv },
  {
    name: 'Postgres',
    // Without a server (and outside CI, see test/postgres-server.ts) these are reported as skipped.
    available: postgresAvailable,
    database: () => {
      const { url, drop } = freshSchema('race');
      drops.push(drop);
      return { PATCHBAY_DATABASE_URL: url } as NodeJS.ProcessEnv;
    },
  },
];
const drops: (() => Promise<void>)[] = [];

async function writerProcess(
  home: string,
  writerId: string,
  count: number,
  mode: 'write' | 'approve' | 'thread',
  database: NodeJS.ProcessEnv,
) {
  const { stdout } = await run(process.execPath, [writer, home, writerId, String(count), mode], {
    env: { ...process.env, ...database, PATCHBAY_SECRET_KEY: secretKey },
  });
  return JSON.parse(stdout) as { won: number[] };
}

async function approverProcess(
  home: string,
  approverId: string,
  mode: 'propose' | 'approve',
  database: NodeJS.ProcessEnv,
) {
  const { stdout } = await run(process.execPath, [approver, home, approverId, mode], {
    env: { ...process.env, ...database, PATCHBAY_SECRET_KEY: secretKey },
  });
  return JSON.parse(stdout) as { ids?: string[]; outcomes?: Record<string, string> };
}

beforeAll(() => {
  if (!existsSync(join(import.meta.dirname, '../dist/index.js'))) {
    throw new Error('Build @patchbay/store first (the test script runs tsup before vitest).');
  }
  if (!existsSync(join(import.meta.dirname, '../../orchestrator/dist/index.js'))) {
    throw new Error('Build @patchbay/orchestrator first: pnpm --filter @patchbay/orchestrator... build');
  }
});

afterEach(async () => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  for (const drop of drops.splice(0)) await drop();
});

for (const { name, available, database: databaseFor } of backends)
  (available ? describe : describe.skip)(`two processes writing at once to ${name}`, () => {
    it('keeps every row of both writers', async () => {
      const home = freshHome();
      const database = databaseFor();
      const count = 150;
      await Promise.all([
        writerProcess(home, 'a', count, 'write', database),
        writerProcess(home, 'b', count, 'write', database),
      ]);
      const store = openStore({ home, secretKey, env: database });
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
        await store.close();
      }
    });

    it('appends to one thread from two processes in one total order, losing nothing', async () => {
      const home = freshHome();
      const database = databaseFor();
      const count = 150;
      const batchSize = 10; // as in test/concurrent-writer.mjs
      await Promise.all([
        writerProcess(home, 'a', count, 'thread', database),
        writerProcess(home, 'b', count, 'thread', database),
      ]);
      const store = openStore({ home, secretKey, env: database });
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
        await store.close();
      }
    });

    it('lets exactly one process win each approval', async () => {
      const home = freshHome();
      const database = databaseFor();
      const count = 60;
      const store = openStore({ home, secretKey, env: database });
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
        writerProcess(home, 'a', count, 'approve', database),
        writerProcess(home, 'b', count, 'approve', database),
      ]);
      const winners = [...first.won, ...second.won].sort((x, y) => x - y);
      expect(winners).toEqual(Array.from({ length: count }, (_, index) => index));
      const approved = await store.proposals.list({ state: 'approved' });
      expect(approved).toHaveLength(count);
      await store.close();
    });

    it('runs each proposal exactly once when two processes approve and run it through the gate at once', async () => {
      const home = freshHome();
      const database = databaseFor();
      const count = 30;
      // One process proposes (the MACs are made there); two others race to approve and run.
      const { ids } = await approverProcess(home, String(count), 'propose', database);
      expect(ids).toHaveLength(count);
      writeFileSync(join(home, 'ids.json'), JSON.stringify(ids));
      const [first, second] = await Promise.all([
        approverProcess(home, 'a', 'approve', database),
        approverProcess(home, 'b', 'approve', database),
      ]);
      const lines = readFileSync(join(home, 'executions.log'), 'utf8').trim().split('\n');
      const items = lines.map((line) => line.split(' ')[0]);
      expect([...items].sort()).toEqual(Array.from({ length: count }, (_, index) => `item-${index}`).sort());
      for (const id of ids!) {
        // One approver won the approval; the other was told it was no longer pending. The winner ran
        // it, unless the model's identical call in the other process used the approval first.
        const outcomes = [first.outcomes![id], second.outcomes![id]];
        expect(outcomes).toContain('proposal_not_pending');
        expect(outcomes.filter((outcome) => outcome === 'ran').length).toBeLessThanOrEqual(1);
        for (const outcome of outcomes)
          expect(['ran', 'proposal_not_pending', 'conflict']).toContain(outcome);
      }
      expect(lines.length).toBe(count);
      const store = openStore({ home, secretKey, env: database });
      try {
        expect(await store.proposals.list({ state: 'executed' })).toHaveLength(count);
        expect((await store.audit.list({ limit: 1000 })).map((record) => record.entry.event)).not.toContain(
          'proposal_tampered',
        );
      } finally {
        await store.close();
      }
    });
  });
