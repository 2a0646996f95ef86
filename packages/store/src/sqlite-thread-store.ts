import type { StoredMessage, Thread } from '@patchbay/connector/ports';
import { decodeMessage, type MessageFormat } from './message-json.js';
import { immediateTransaction } from './sqlite-database.js';
import type { SqliteHandle } from './sqlite-handle.js';
import type { PatchbayThreadStore } from './store.js';
import { defaultMaxMessageChars, encodeThreadRows, requireThreadId } from './thread-rows.js';

interface ThreadRow {
  message: string;
  format: MessageFormat;
}

export { defaultMaxMessageChars } from './thread-rows.js';

/**
 * Conversation threads in SQLite, one row per message with its position. An append takes the
 * write lock before reading the last position, so appends from several processes to one thread
 * each land as one contiguous run and none overwrites another.
 */
export class SqliteThreadStore implements PatchbayThreadStore {
  /**
   * `maxMessageChars` bounds one row: a tool message over it has its results cut (with a note of
   * their full size); any other message over it is refused with `message_too_large`.
   */
  constructor(
    private readonly handle: SqliteHandle,
    private readonly maxMessageChars: number = defaultMaxMessageChars,
  ) {}

  /** The thread's messages in append order, or undefined when it has none. */
  async load(threadId: string): Promise<Thread | undefined> {
    requireThreadId(threadId);
    const rows = this.handle.guard(
      () =>
        this.handle
          .prepare('SELECT message, format FROM threads WHERE thread_id = ? ORDER BY ordinal')
          .all(threadId) as unknown as ThreadRow[],
    );
    if (rows.length === 0) return undefined;
    return { id: threadId, messages: rows.map((row) => decodeMessage(row.message, row.format)) };
  }

  /** Appends messages after the thread's last one, in one `BEGIN IMMEDIATE` transaction. */
  async append(threadId: string, messages: readonly StoredMessage[]): Promise<void> {
    requireThreadId(threadId);
    if (messages.length === 0) return;
    const appendedAt = new Date().toISOString();
    // Encoding first: a message that cannot be stored aborts the append before anything is written.
    const rows = encodeThreadRows(messages, this.maxMessageChars, appendedAt);
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        const last = this.handle
          .prepare('SELECT MAX(ordinal) AS ordinal FROM threads WHERE thread_id = ?')
          .get(threadId) as { ordinal: number | null } | undefined;
        const next = Number(last?.ordinal ?? -1) + 1;
        const insert = this.handle.prepare(
          `INSERT INTO threads (thread_id, ordinal, role, sent_at, appended_at, format, message)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        );
        rows.forEach((row, index) => {
          insert.run(threadId, next + index, row.role, row.sentAt, appendedAt, row.format, row.json);
        });
      }),
    );
  }

  /** Deletes a thread's messages. Returns false when it had none. */
  async delete(threadId: string): Promise<boolean> {
    requireThreadId(threadId);
    return this.handle.guard(() => {
      const result = this.handle.prepare('DELETE FROM threads WHERE thread_id = ?').run(threadId);
      return Number(result.changes) > 0;
    });
  }
}
