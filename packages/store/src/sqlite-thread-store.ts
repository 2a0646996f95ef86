import { messageSentAt, type StoredMessage, type Thread } from '@patchbay/connector';
import { PatchbayError, truncateForModel } from '@patchbay/envelope';
import { decodeMessage, encodeMessage, type MessageFormat } from './message-json.js';
import { immediateTransaction } from './sqlite-database.js';
import type { SqliteHandle } from './sqlite-handle.js';
import type { PatchbayThreadStore } from './store.js';

interface ThreadRow {
  message: string;
  format: MessageFormat;
}

function requireThreadId(threadId: string): void {
  if (typeof threadId !== 'string' || threadId.trim() === '') {
    throw new PatchbayError('invalid_arguments', 'threadId must be a non-empty string.');
  }
}

/** Default of {@link SqliteThreadStore}'s row limit: about a megabyte of JSON per message. */
export const defaultMaxMessageChars = 1_000_000;

/** Room left in a shortened tool result for the note and the part's own fields. */
const noteRoom = 200;

type ToolResultLike = { type: 'tool-result'; output?: unknown };

/**
 * A tool message whose results are cut so its row fits `maxChars`: each oversized result becomes a
 * text output with its start and a note of the full size, as the model would have seen it. Other
 * parts and messages are returned unchanged.
 */
function shortenToolResults(message: StoredMessage, maxChars: number): StoredMessage {
  const content = (message as { content?: unknown }).content;
  if (message.role !== 'tool' || !Array.isArray(content) || content.length === 0) return message;
  const share = Math.max(noteRoom, Math.floor(maxChars / content.length) - noteRoom);
  const parts = content.map((part: unknown) => {
    if ((part as ToolResultLike)?.type !== 'tool-result') return part;
    const output = JSON.stringify((part as ToolResultLike).output ?? null);
    if (output.length <= share) return part;
    return { ...(part as object), output: { type: 'text', value: truncateForModel(output, share) } };
  });
  return { ...message, content: parts } as StoredMessage;
}

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

  private encode(message: StoredMessage): ReturnType<typeof encodeMessage> {
    const encoded = encodeMessage(message);
    if (encoded.json.length <= this.maxMessageChars) return encoded;
    const shortened = encodeMessage(shortenToolResults(message, this.maxMessageChars));
    if (shortened.json.length <= this.maxMessageChars) return shortened;
    throw new PatchbayError(
      'message_too_large',
      `A ${message.role} message of ${encoded.json.length} characters is over the thread store's limit of ${this.maxMessageChars} (the maxThreadMessageChars option of openStore).`,
    );
  }

  /** The thread's messages in append order, or undefined when it has none. */
  async load(threadId: string): Promise<Thread | undefined> {
    requireThreadId(threadId);
    const rows = this.handle.guard(
      (database) =>
        database
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
    const rows = messages.map((message) => ({
      ...this.encode(message),
      role: message.role,
      sentAt: messageSentAt(message) ?? appendedAt,
    }));
    this.handle.guard((database) =>
      immediateTransaction(database, () => {
        const last = database
          .prepare('SELECT MAX(ordinal) AS ordinal FROM threads WHERE thread_id = ?')
          .get(threadId) as { ordinal: number | null } | undefined;
        const next = Number(last?.ordinal ?? -1) + 1;
        const insert = database.prepare(
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
    return this.handle.guard((database) => {
      const result = database.prepare('DELETE FROM threads WHERE thread_id = ?').run(threadId);
      return Number(result.changes) > 0;
    });
  }
}
