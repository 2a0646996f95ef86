import type { StoredMessage, Thread } from '@patchbay/connector';
import { decodeMessage, type MessageFormat } from './message-json.js';
import type { PostgresHandle } from './postgres-handle.js';
import type { PatchbayThreadStore } from './store.js';
import { defaultMaxMessageChars, encodeThreadRows, requireThreadId } from './thread-rows.js';

/**
 * Conversation threads in Postgres, one row per message with its position. An append holds a
 * transaction-scoped advisory lock on its thread (schema and id hashed) while it reads the last
 * position and inserts, so appends from any number of processes each land as one contiguous run;
 * appends to other threads do not wait for it.
 */
export class PostgresThreadStore implements PatchbayThreadStore {
  /** `maxMessageChars` bounds one row, as for SQLite (see thread-rows.ts). */
  constructor(
    private readonly handle: PostgresHandle,
    private readonly maxMessageChars: number = defaultMaxMessageChars,
  ) {}

  /** The thread's messages in append order, or undefined when it has none. */
  async load(threadId: string): Promise<Thread | undefined> {
    requireThreadId(threadId);
    const { rows } = await this.handle.query<{ message: string; format: MessageFormat }>(
      'SELECT message, format FROM threads WHERE thread_id = $1 ORDER BY ordinal',
      [threadId],
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
    await this.handle.transaction(async (client) => {
      await client.query(
        "SELECT pg_advisory_xact_lock(hashtextextended('patchbay thread ' || $1 || ' ' || $2, 0))",
        [this.handle.schema, threadId],
      );
      // The position is read in the INSERT itself: under READ COMMITTED its snapshot is taken after
      // the lock was granted, so it sees every append that held the lock before. One round trip
      // fewer, and one statement text whatever the batch size.
      await client.query(
        `INSERT INTO threads (thread_id, ordinal, role, sent_at, appended_at, format, message)
         SELECT $1, base.next + item.position - 1, item.role, item.sent_at, $2, item.format, item.message
         FROM (SELECT COALESCE(MAX(ordinal), -1) + 1 AS next FROM threads WHERE thread_id = $1) AS base,
           unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
             AS item (role, sent_at, format, message, position)`,
        [
          threadId,
          appendedAt,
          rows.map((row) => row.role),
          rows.map((row) => row.sentAt),
          rows.map((row) => row.format),
          rows.map((row) => row.json),
        ],
      );
    });
  }

  /** Deletes a thread's messages. Returns false when it had none. */
  async delete(threadId: string): Promise<boolean> {
    requireThreadId(threadId);
    const result = await this.handle.query('DELETE FROM threads WHERE thread_id = $1', [threadId]);
    return result.rowCount > 0;
  }
}
