import { PatchbayError } from '@patchbay/envelope';
import { type Job, PgBoss } from 'pg-boss';
import type { MemoryQueue, MemoryQueueOptions, MemoryQueueStatus, QueuedMessage } from '../memory-queue.js';

/** Settings of {@link createPgBossMemoryQueue}. */
export interface PgBossMemoryQueueOptions extends Pick<MemoryQueueOptions, 'process' | 'onError'> {
  /** The Postgres database the jobs live in (the store's `PATCHBAY_DATABASE_URL` is the natural one). */
  connectionString: string;
  /** Postgres schema pg-boss keeps its tables in. Default `pgboss`. */
  schema?: string;
  /** The queue's name; every instance that shares the work uses the same. Default `patchbay-memory`. */
  queueName?: string;
  /** Backoff after a failure, doubling from `baseDelayMs` (default 1 s) up to `maxDelayMs` (default 60 s); whole seconds. */
  retry?: { baseDelayMs?: number; maxDelayMs?: number };
  /** Hand messages over in this process (default `true`); `false` only queues (a web process whose workers run elsewhere). */
  work?: boolean;
  /** How often an idle worker looks for new messages, in seconds. Default 1. */
  pollingIntervalSeconds?: number;
}

interface MessageJob {
  threadId: string;
  role: 'user' | 'assistant';
  content: string;
  queuedAt: string;
}

const toSeconds = (milliseconds: number) => Math.max(1, Math.round(milliseconds / 1000));
// Retries never run out: a message waits (and holds its thread) until memory takes it.
const unlimitedRetries = 1_000_000;

function errorOf(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null) return undefined;
  const message = (output as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * The background memory queue on Postgres, built on pg-boss: several app instances on one database
 * share the work, and a message survives any crash (it is a row until memory took it). The queue uses
 * pg-boss's `key_strict_fifo` policy with the thread as key, so each thread's messages are handed over
 * one at a time in order — by whichever instance fetches them — while threads run side by side; a
 * failing message is retried with backoff and holds its thread's later messages back.
 */
export async function createPgBossMemoryQueue(options: PgBossMemoryQueueOptions): Promise<MemoryQueue> {
  const name = options.queueName ?? 'patchbay-memory';
  const baseDelayMs = options.retry?.baseDelayMs ?? 1_000;
  const maxDelayMs = options.retry?.maxDelayMs ?? 60_000;
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: options.schema ?? 'pgboss',
    schedule: false,
  });
  // pg-boss reports background trouble (a lost connection) as events; without a listener Node would throw.
  boss.on('error', () => undefined);
  await boss.start();
  if (!(await boss.getQueue(name))) {
    await boss
      .createQueue(name, {
        policy: 'key_strict_fifo',
        retryLimit: unlimitedRetries,
        retryDelay: toSeconds(baseDelayMs),
        retryBackoff: true,
        retryDelayMax: toSeconds(maxDelayMs),
      })
      // Another instance created it between the check and here.
      .catch(async (error: unknown) => {
        if (!(await boss.getQueue(name))) throw error;
      });
  }

  let closed = false;
  // Messages this process is handing over now (pg-boss lists only jobs not yet taken as queued).
  let inFlight = 0;
  const handle = async ([job]: Job<MessageJob>[]) => {
    if (!job) return;
    const { threadId, role, content } = job.data;
    inFlight += 1;
    try {
      await options.process(threadId, { role, content });
    } catch (error) {
      const failed = {
        id: job.id,
        threadId,
        role,
        content,
        queuedAt: job.data.queuedAt,
        attempts: job.retryCount + 1,
      };
      options.onError?.(failed, error);
      throw error;
    } finally {
      inFlight -= 1;
    }
  };
  if (options.work !== false) {
    await boss.work<MessageJob>(
      name,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
      handle,
    );
  }

  // Created or waiting for a retry: not taken by any worker yet.
  const waiting = () => boss.findJobs<MessageJob>(name, { queued: true, limit: 100_000 });
  // Not done anywhere: also those another instance is handing over now (idle waits for the whole queue,
  // not only this process's share: with two instances, one can be idle while the other still works).
  const unfinished = async () =>
    (await boss.findJobs<MessageJob>(name, { limit: 100_000 })).filter(
      (job) => job.state === 'created' || job.state === 'retry' || job.state === 'active',
    );

  const status = async (): Promise<MemoryQueueStatus> => {
    const jobs = await unfinished();
    const failing: QueuedMessage[] = [];
    const seen = new Set<string>();
    for (const job of jobs) {
      if (seen.has(job.data.threadId)) continue;
      seen.add(job.data.threadId);
      if (job.state !== 'retry') continue;
      const lastError = errorOf(job.output);
      failing.push({
        id: job.id,
        threadId: job.data.threadId,
        role: job.data.role,
        content: job.data.content,
        queuedAt: job.data.queuedAt,
        attempts: job.retryCount,
        ...(lastError ? { lastError } : {}),
        retryAt: new Date(job.startAfter).toISOString(),
      });
    }
    return { pending: jobs.length, failing };
  };

  return {
    async enqueue(threadId, message) {
      if (closed) throw new PatchbayError('invalid_usage', 'The memory queue is closed.');
      const job: MessageJob = { threadId, ...message, queuedAt: new Date().toISOString() };
      await boss.send(name, job, { singletonKey: threadId });
    },
    async resume() {
      return closed ? 0 : (await waiting()).length;
    },
    status,
    async idle() {
      while (!closed && (inFlight > 0 || (await unfinished()).length > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await boss.stop({ graceful: true, close: true, timeout: 10_000 });
    },
  };
}
