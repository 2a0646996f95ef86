/**
 * A conversation message as a thread store keeps it. Structural on purpose: the AI SDK's
 * `ModelMessage` fits it, and a store implementation needs no dependency on the AI SDK to persist one.
 */
export interface StoredMessage {
  /** Who the message is from. */
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Text, or parts each tagged with a `type` (`text`, `image`, `file`, `tool-call`, `tool-result`, …). */
  content: string | readonly StoredMessagePart[];
}

/** One part of a {@link StoredMessage}'s content; other fields depend on its `type`. */
export interface StoredMessagePart {
  /** The kind of part, e.g. `text`. */
  type: string;
}

/** A conversation as stored: its id and its messages in stored (stamped) form, oldest first. */
export interface Thread<Message extends StoredMessage = StoredMessage> {
  /** The thread id the messages were appended under. */
  id: string;
  /** Messages in append order. */
  messages: Message[];
}

/**
 * Where conversations persist between turns: SQLite in `@patchbay/store`, in memory in
 * `@patchbay/turn`, or your own database. A store gives back exactly the messages it was given,
 * in the order they were appended.
 */
export interface ThreadStore<Message extends StoredMessage = StoredMessage> {
  /** The thread, or undefined when it has no messages yet. */
  load(threadId: string): Promise<Thread<Message> | undefined>;
  /** Appends messages (already stamped) at the end of the thread, creating it when needed. */
  append(threadId: string, messages: readonly Message[]): Promise<void>;
}

const sentAtText = /^\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)\]$/;
const sentAtPrefix = /^\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)\] /;

/**
 * The time a stored message was stamped with (ISO, whole seconds), or undefined. The stamp is a
 * leading `[2026-11-21T15:00:00Z]` text part (a prefix of a system message's text); `@patchbay/protocol`'s
 * `stampMessage` writes it. It lives beside the port so a store can index messages by time
 * without depending on the prompt package.
 */
export function messageSentAt(message: StoredMessage): string | undefined {
  if (typeof message.content === 'string') {
    return message.role === 'system' ? sentAtPrefix.exec(message.content)?.[1] : undefined;
  }
  const first = message.content[0] as (StoredMessagePart & { text?: unknown }) | undefined;
  if (first?.type !== 'text' || typeof first.text !== 'string') return undefined;
  return sentAtText.exec(first.text)?.[1];
}
