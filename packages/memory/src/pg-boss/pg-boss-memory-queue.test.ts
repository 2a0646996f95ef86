import { afterEach, expect, it } from 'vitest';
// The store package's test server helpers: one Postgres schema per test, dropped afterwards.
import { describePostgres, freshSchema, postgresUrl } from '../../../store/test/postgres-server.js';
import type { MemoryQueue } from '../memory-queue.js';
import { createPgBossMemoryQueue, type PgBossMemoryQueueOptions } from './pg-boss-memory-queue.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function schema(): string {
  const fresh = freshSchema('mq');
  cleanups.push(fresh.drop);
  return fresh.schema;
}

async function queue(options: Omit<PgBossMemoryQueueOptions, 'connectionString'>): Promise<MemoryQueue> {
  const opened = await createPgBossMemoryQueue({
    connectionString: postgresUrl,
    pollingIntervalSeconds: 0.5,
    retry: { baseDelayMs: 1_000, maxDelayMs: 2_000 },
    ...options,
  });
  cleanups.push(() => opened.close());
  return opened;
}

type Seen = { threadId: string; content: string; by: string };
const say = (content: string) => ({ role: 'user' as const, content });
const contentsOf = (seen: Seen[], threadId: string) =>
  seen.filter((item) => item.threadId === threadId).map((item) => item.content);

// Busy machine: pg-boss starts its schema, polls every 0.5 s, and retries after whole seconds.
const timeout = 90_000;

describePostgres('the memory queue on Postgres (pg-boss)', () => {
  it(
    'with two instances working: every message once, each thread in order',
    async () => {
      const name = schema();
      const seen: Seen[] = [];
      const worker = (by: string) => async (threadId: string, message: { content: string }) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        seen.push({ threadId, content: message.content, by });
      };
      const first = await queue({ schema: name, process: worker('first') });
      const second = await queue({ schema: name, process: worker('second') });
      const threads = ['t1', 't2', 't3', 't4'];
      for (let index = 1; index <= 5; index += 1) {
        for (const threadId of threads) await first.enqueue(threadId, say(`${threadId}-${index}`));
      }
      await first.idle();
      expect(seen).toHaveLength(20);
      for (const threadId of threads) {
        expect(contentsOf(seen, threadId)).toEqual([1, 2, 3, 4, 5].map((index) => `${threadId}-${index}`));
      }
      expect((await second.status()).pending).toBe(0);
    },
    timeout,
  );

  it(
    'keeps messages queued while no worker runs; a later process takes them all',
    async () => {
      const name = schema();
      const producer = await queue({
        schema: name,
        work: false,
        process: () => Promise.reject(new Error('unused')),
      });
      for (const content of ['a', 'b', 'c']) await producer.enqueue('thread-1', say(content));
      expect(await producer.resume()).toBe(3);
      await producer.close();

      const seen: Seen[] = [];
      const consumer = await queue({
        schema: name,
        process: async (threadId, message) => {
          seen.push({ threadId, content: message.content, by: 'consumer' });
        },
      });
      await consumer.idle();
      expect(contentsOf(seen, 'thread-1')).toEqual(['a', 'b', 'c']);
    },
    timeout,
  );

  it(
    'retries a failing message, shows it failing, and holds its thread behind it',
    async () => {
      const name = schema();
      const seen: string[] = [];
      let failuresLeft = 1;
      const failures: number[] = [];
      const retrying = await queue({
        schema: name,
        onError: (message) => failures.push(message.attempts),
        process: async (_threadId, message) => {
          if (message.content === 'first' && failuresLeft > 0) {
            failuresLeft -= 1;
            throw new Error('memory server unavailable');
          }
          seen.push(message.content);
        },
      });
      await retrying.enqueue('t', say('first'));
      await retrying.enqueue('t', say('second'));
      let status = await retrying.status();
      for (let tries = 0; status.failing.length === 0 && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await retrying.status();
      }
      expect(status.failing[0]).toMatchObject({
        threadId: 't',
        content: 'first',
        lastError: 'memory server unavailable',
      });
      expect(seen).toEqual([]);
      await retrying.idle();
      expect(seen).toEqual(['first', 'second']);
      expect(failures).toEqual([1]);
    },
    timeout,
  );
});
