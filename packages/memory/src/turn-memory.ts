import type { Checkpointer } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import type { Orchestrator } from '@patchbay/orchestrator';
import type { MemoryAgent } from './agent/memory-agent.js';
import { createMemoryInvoker, type MemoryInvoker } from './invoker.js';
import { createMemoryQueue, type MemoryQueue, type MemoryQueueOptions } from './memory-queue.js';
import { readMemoryForTurn } from './memory-turn-context.js';
import { memoryTools } from './server/memory-tools.js';

/** Settings of {@link turnMemory}. */
export interface TurnMemoryOptions {
  /** The gate the context is read through (the memory agent's own calls go through it too). */
  orchestrator: Pick<Orchestrator, 'execute'>;
  /** Whose memory: the only subject whose turns this adapter serves. */
  subject: string;
  /** The vault and memory of the subject (see `ensureMemory`). */
  vaultId: string;
  memoryId: string;
  /** The memory agent the turn's messages are handed to (`createMemoryAgent`, same subject). */
  agent: MemoryAgent;
  /** Where each thread's message count is kept (`openStore()` is one). */
  checkpointer: Checkpointer;
  /** Flush on every n-th message of a thread; the invoker's default (6) when absent. */
  flushEvery?: number;
  /** Prefix the memory server's tools carry in the orchestrator, if any. */
  toolPrefix?: string;
  /**
   * Which memory tools the chat model is offered: `read` (default) only the read-only ones — writes
   * (`create_vault`, `create_memory_in_vault`, `add_entry`, `put_context`) are the memory agent's;
   * `all` every tool, as the server lists them.
   */
  chatTools?: 'read' | 'all';
  /**
   * Record in the background: `record` only queues the message and returns, and a {@link MemoryQueue}
   * hands it to the invoker, retrying failures with backoff. `true` (or the queue's settings) makes an
   * in-process queue that keeps waiting messages in `checkpointer`; a queue of your own — e.g.
   * `createPgBossMemoryQueue` with `processWithInvokers` — is used as given. Without it, `record` waits
   * for the memory agent (inline). Call `queue.resume()` at start-up to finish what a previous process
   * left waiting.
   */
  background?: boolean | Pick<MemoryQueueOptions, 'capacity' | 'retry' | 'onError'> | MemoryQueue;
}

/**
 * The `memory` option of `runTurn` (`@patchbay/turn`'s `ConversationMemory`, matched by shape), plus
 * the invoker of each thread so the caller can start and end sessions.
 */
export interface TurnMemory {
  /** The context of the previous sessions; throws when memory is unavailable (the turn records it and goes on). */
  context(subject: string, threadId: string, options?: { signal?: AbortSignal }): Promise<string | undefined>;
  /**
   * Hands one of `subject`'s messages to the thread's invoker (`processMessage`, flushing on its
   * cadence); throws `invalid_arguments`, writing nothing, when `subject` is not the adapter's.
   */
  record(
    subject: string,
    threadId: string,
    message: { role: 'user' | 'assistant'; content: string },
  ): Promise<void>;
  /** The invoker of a thread, created once: `startSession` / `endSession` (the final flush) are the caller's. */
  invoker(threadId: string): MemoryInvoker;
  /** Memory tools the turn does not offer the chat model (the writes, unless `chatTools: 'all'`). */
  readonly withheldTools: readonly string[];
  /** The background queue, when `background` was set: its status, `idle()`, `resume()` and `close()`. */
  readonly queue?: MemoryQueue;
}

/**
 * The one check every read and write passes: the adapter serves the subject it was made for, so a
 * turn for another subject can neither read this memory nor write its messages into it.
 */
function requireOwnSubject(own: string, subject: string, action: 'read' | 'written'): void {
  if (subject !== own) {
    throw new PatchbayError(
      'invalid_arguments',
      `This memory belongs to another subject; it is not ${action}.`,
    );
  }
}

const isQueue = (value: object): value is MemoryQueue =>
  typeof (value as Partial<MemoryQueue>).enqueue === 'function';

/**
 * Connects memory to the agent turn: `context` reads the current context through the gate
 * (`readMemoryForTurn`), `record` feeds the thread's invoker. Both take the turn's subject and refuse
 * any other, so one subject's memory never reaches another's prompt and another's messages never
 * reach this memory.
 */
export function turnMemory(options: TurnMemoryOptions): TurnMemory {
  const invokers = new Map<string, MemoryInvoker>();
  const invoker = (threadId: string) => {
    let found = invokers.get(threadId);
    if (!found) {
      found = createMemoryInvoker({
        agent: options.agent,
        threadId,
        checkpointer: options.checkpointer,
        ...(options.flushEvery ? { flushEvery: options.flushEvery } : {}),
      });
      invokers.set(threadId, found);
    }
    return found;
  };

  const withheldTools =
    options.chatTools === 'all'
      ? []
      : memoryTools.filter((tool) => !tool.readOnly).map((tool) => `${options.toolPrefix ?? ''}${tool.name}`);

  const { background } = options;
  const queue = !background
    ? undefined
    : typeof background === 'object' && isQueue(background)
      ? background
      : createMemoryQueue({
          ...(typeof background === 'object' ? background : {}),
          checkpointer: options.checkpointer,
          process: async (threadId, message) => {
            await invoker(threadId).processMessage(message.role, message.content);
          },
        });

  return {
    invoker,
    withheldTools,
    ...(queue ? { queue } : {}),
    async context(subject, _threadId, callOptions) {
      requireOwnSubject(options.subject, subject, 'read');
      const read = await readMemoryForTurn({
        orchestrator: options.orchestrator,
        subject,
        vaultId: options.vaultId,
        memoryId: options.memoryId,
        ...(options.toolPrefix ? { toolPrefix: options.toolPrefix } : {}),
        ...(callOptions?.signal ? { signal: callOptions.signal } : {}),
      });
      if (read.status === 'unavailable')
        throw new PatchbayError('upstream_error', `memory unavailable: ${read.reason}`);
      return read.context;
    },
    async record(subject, threadId, message) {
      requireOwnSubject(options.subject, subject, 'written');
      if (queue) await queue.enqueue(threadId, message);
      else await invoker(threadId).processMessage(message.role, message.content);
    },
  };
}
