import type { StoredMessage, Thread } from '@patchbay/connector/ports';
import { decodeMessage, type MessageFormat } from './message-json.js';
import type { PostgresHandle } from './postgres-handle.js';
import type { PatchbayThreadStore } from './store.js';
import { defaultMaxMessageChars, encodeThreadRows, requireThreadId } from './thread-rows.js';

/**
 * Conversation threads in Postgres, one row per message with its position. An append holds a
 * transaction-scoped advisory lock on its thread (schema and id hashed) while it reads the last
 * position and inserts, so appends from any number of processes each land as one contiguous run;
 * appends to other threads do not wait for it. The append is one statement (the schema's
 * `thread_append` function), so one round trip.
 */
export class PostgresThreadStore implements PatchbayThreadStore {
  /**
   * `maxMessageChars` bounds one row, as for SQLite (see thread-rows.ts). `relaxedCommit` commits
   * appends with `synchronous_commit = off` (the store's `asyncCommit` of `'threads'` or `'all'`).
   */
  constructor(
    private readonly handle: PostgresHandle,
    private readonly maxMessageChars: number = defaultMaxMessageChars,
    private readonly relaxedCommit = false,
  ) {}

  /** The thread's messages in append order, or undefined when it has none. */
  async load(threadId: string): Promise<Thread | undefined> {
    requireThreadId(threadId);
    const { rows } = await this.handle.query<{ message: string; format: MessageFormat }>(
      'SELECT message, format FROM threads WHERE thread_id = $1 ORDER BY ordinal',
      [threadId],
      'patchbay_thread_load',
    );
    if (rows.length === 0) return undefined;
    return { id: threadId, messages: rows.map((row) => decodeMessage(row.message, row.format)) };
  }

  /** Appends messages after the thread's last one, in one transaction under the thread's lock. */
  async append(threadId: string, messages: readonly StoredMessage[]): Promise<void> {
    requireThreadId(threadId);
    if (messages.length === 0) return;
    const appendedAt = new Date().toISOString();
    // Encoding first: a message that cannot be stored aborts the append before anything is written.
    const rows = encodeThreadRows(messages, this.maxMessageChars, appendedAt);
    // One round trip: the schema's thread_append (migration step 5) takes the thread's advisory
    // lock, then reads the last position in its INSERT, whose snapshot under READ COMMITTED is
    // taken after the lock was granted, so it sees every append that held the lock before.
    await this.handle.query(
      'SELECT thread_append($1, $2, $3, $4::text[], $5::text[], $6::text[], $7::text[], $8)',
      [
        this.handle.schema,
        threadId,
        appendedAt,
        rows.map((row) => row.role),
        rows.map((row) => row.sentAt),
        rows.map((row) => row.format),
        rows.map((row) => row.json),
        this.relaxedCommit,
      ],
      'patchbay_thread_append',
    );
  }

  /** Deletes a thread's messages. Returns false when it had none. */
  async delete(threadId: string): Promise<boolean> {
    requireThreadId(threadId);
    const result = await this.handle.query('DELETE FROM threads WHERE thread_id = $1', [threadId]);
    return result.rowCount > 0;
  }
}
