import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Checkpointer } from '@patchbay/connector/ports';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { createScriptedModel } from '@patchbay/turn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryAgent } from './agent/memory-agent.js';
import { builtInPromptLoader } from './agent/rule-prompt-loader.js';
import { createMemoryQueue, type MemoryQueue } from './memory-queue.js';
import { diligentModel, type MemoryWorld, openMemoryWorld, removeHome } from './test-kit.js';
import { turnMemory } from './turn-memory.js';

const secretKey = Buffer.alloc(32, 9).toString('base64');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function store(home = mkdtempSync(join(tmpdir(), 'patchbay-queue-'))): PatchbayStore & { home: string } {
  const opened = openStore({ home, secretKey, env: {} });
  cleanups.push(() => opened.close());
  cleanups.push(() => removeHome(home));
  return Object.assign(opened, { home });
}

function queueOf(options: Parameters<typeof createMemoryQueue>[0]): MemoryQueue {
  const queue = createMemoryQueue(options);
  cleanups.push(() => queue.close());
  return queue;
}

type Seen = { threadId: string; content: string };
const say = (content: string) => ({ role: 'user' as const, content });
const retryFast = { baseDelayMs: 5, maxDelayMs: 20 };

describe('the memory queue', () => {
  it('hands over each thread in order, threads side by side, and nothing twice', async () => {
    const seen: Seen[] = [];
    // The slow thread's first message is held until the fast thread is done: a queue that made one
    // thread wait for another would never get there (the test times out).
    let fastDone: () => void = () => undefined;
    const fastFinished = new Promise<void>((resolve) => {
      fastDone = resolve;
    });
    const queue = queueOf({
      process: async (threadId, message) => {
        if (message.content === 's1') await fastFinished;
        seen.push({ threadId, content: message.content });
        if (message.content === 'f5') fastDone();
      },
    });
    for (let index = 1; index <= 5; index += 1) {
      await queue.enqueue('slow', say(`s${index}`));
      await queue.enqueue('fast', say(`f${index}`));
    }
    await queue.idle();
    const of = (thread: string) =>
      seen.filter((item) => item.threadId === thread).map((item) => item.content);
    expect(of('slow')).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(of('fast')).toEqual(['f1', 'f2', 'f3', 'f4', 'f5']);
    // The fast thread did not wait for the slow one.
    expect(seen.findIndex((item) => item.content === 'f5')).toBeLessThan(
      seen.findIndex((item) => item.content === 's5'),
    );
    expect(await queue.status()).toEqual({ pending: 0, failing: [] });
  });

  it('retries a failing message with backoff, shows it failing, and keeps its thread behind it', async () => {
    const seen: string[] = [];
    let failuresLeft = 3;
    const errors: string[] = [];
    // The first failure is awaited, and the retries wait until the test has looked at the status.
    let failed: () => void = () => undefined;
    const firstFailure = new Promise<void>((resolve) => {
      failed = resolve;
    });
    let release: () => void = () => undefined;
    const looked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = queueOf({
      retry: retryFast,
      onError: (message) => {
        errors.push(`${message.content}#${message.attempts}`);
        failed();
      },
      process: async (_threadId, message) => {
        if (message.content === 'first' && failuresLeft < 3) await looked;
        if (message.content === 'first' && failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('memory server unavailable');
        }
        seen.push(message.content);
      },
    });
    await queue.enqueue('t', say('first'));
    await queue.enqueue('t', say('second'));
    await firstFailure;
    const status = await queue.status();
    expect(status.pending).toBe(2);
    expect(status.failing).toHaveLength(1);
    expect(status.failing[0]).toMatchObject({ content: 'first', lastError: 'memory server unavailable' });
    expect(status.failing[0]?.retryAt).toBeDefined();
    release();
    await queue.idle();
    expect(seen).toEqual(['first', 'second']);
    expect(errors).toEqual(['first#1', 'first#2', 'first#3']);
  });

  it('refuses a message beyond its capacity, saying it was not recorded', async () => {
    const queue = queueOf({ capacity: 2, process: () => new Promise(() => {}) });
    await queue.enqueue('t', say('one'));
    await queue.enqueue('t', say('two'));
    await expect(queue.enqueue('t', say('three'))).rejects.toThrow(
      /full \(2 messages waiting\).*not recorded/,
    );
    expect((await queue.status()).pending).toBe(2);
  });

  it('keeps waiting messages in the store: a new process resumes them in order', async () => {
    const first = store();
    const stuck = queueOf({
      checkpointer: first,
      retry: retryFast,
      process: () => Promise.reject(new Error('down')),
    });
    for (const content of ['a', 'b', 'c']) await stuck.enqueue('thread-1', say(content));
    await stuck.enqueue('thread-2', say('x'));
    await stuck.close();
    first.close();

    const reopened = store(first.home);
    const seen: Seen[] = [];
    const resumed = queueOf({
      checkpointer: reopened,
      process: async (threadId, message) => {
        seen.push({ threadId, content: message.content });
      },
    });
    expect(await resumed.resume()).toBe(4);
    await resumed.idle();
    expect(seen.filter((item) => item.threadId === 'thread-1').map((item) => item.content)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(seen.filter((item) => item.threadId === 'thread-2').map((item) => item.content)).toEqual(['x']);
    // Done messages leave the store: a third process finds nothing to do.
    const third = queueOf({ checkpointer: reopened, process: () => Promise.reject(new Error('unexpected')) });
    expect(await third.resume()).toBe(0);
  });

  it('does not queue a message it could not save: the caller is told and nothing runs', async () => {
    const processed: string[] = [];
    const broken: Checkpointer = {
      saveCheckpoint: () => Promise.reject(new Error('disk full')),
      loadCheckpoint: () => Promise.resolve(undefined),
      deleteCheckpoint: () => Promise.resolve(),
    };
    const queue = queueOf({
      checkpointer: broken,
      process: async (_threadId, message) => {
        processed.push(message.content);
      },
    });
    await expect(queue.enqueue('t', say('lost?'))).rejects.toThrow('disk full');
    await queue.idle();
    expect(processed).toEqual([]);
    expect((await queue.status()).pending).toBe(0);
  });
});

describe('turnMemory in the background', () => {
  const worlds: MemoryWorld[] = [];
  afterEach(async () => {
    for (const world of worlds.splice(0)) {
      await world.close();
      removeHome(world.home);
    }
  });

  it('returns from record before the memory agent runs, then records every message once', async () => {
    const world = await openMemoryWorld();
    worlds.push(world);
    const model = createScriptedModel(diligentModel);
    const agent = createMemoryAgent({
      model,
      orchestrator: world.orchestrator,
      subject: 'alice',
      ...world.ids,
      checkpointer: world.store,
      prompts: builtInPromptLoader,
    });
    const memory = turnMemory({
      orchestrator: world.orchestrator,
      subject: 'alice',
      ...world.ids,
      agent,
      checkpointer: world.store,
      flushEvery: 3,
      background: { retry: retryFast },
    });
    cleanups.push(() => memory.queue?.close());
    for (let index = 1; index <= 3; index += 1)
      await memory.record('alice', 'thread-1', say(`fact ${index}`));
    expect(model.calls.length).toBeLessThan(4);
    await memory.queue?.idle();
    const written = world.methods().filter((name) => name === 'addEntry' || name === 'putContext');
    expect(written).toEqual(['addEntry', 'addEntry', 'addEntry', 'putContext']);
    expect(await memory.invoker('thread-1').messageCount()).toBe(3);
  });
});
