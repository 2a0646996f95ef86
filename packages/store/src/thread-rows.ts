import { messageSentAt, type StoredMessage } from '@patchbay/connector/ports';
import { PatchbayError, truncateForModel } from '@patchbay/envelope';
import { encodeMessage, type MessageFormat } from './message-json.js';

/** Default row limit of both thread stores: about a megabyte of JSON per message. */
export const defaultMaxMessageChars = 1_000_000;

/** Room left in a shortened tool result for the note and the part's own fields. */
const noteRoom = 200;

type ToolResultLike = { type: 'tool-result'; output?: unknown };

/** A message ready for its `threads` row (both dialects). */
export interface ThreadRowInput {
  json: string;
  format: MessageFormat;
  role: string;
  sentAt: string;
}

/** Throws `invalid_arguments` unless the thread id is a non-empty string. */
export function requireThreadId(threadId: string): void {
  if (typeof threadId !== 'string' || threadId.trim() === '') {
    throw new PatchbayError('invalid_arguments', 'threadId must be a non-empty string.');
  }
}

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

function encodeBounded(message: StoredMessage, maxChars: number): ReturnType<typeof encodeMessage> {
  const encoded = encodeMessage(message);
  if (encoded.json.length <= maxChars) return encoded;
  const shortened = encodeMessage(shortenToolResults(message, maxChars));
  if (shortened.json.length <= maxChars) return shortened;
  throw new PatchbayError(
    'message_too_large',
    `A ${message.role} message of ${encoded.json.length} characters is over the thread store's limit of ${maxChars} (the maxThreadMessageChars option of openStore).`,
  );
}

/**
 * Encodes an append's messages before anything is written, so a message that cannot be stored
 * aborts the whole append. `sentAt` is the message's stamp or, unstamped, the append's time.
 */
export function encodeThreadRows(
  messages: readonly StoredMessage[],
  maxChars: number,
  appendedAt: string,
): ThreadRowInput[] {
  return messages.map((message) => ({
    ...encodeBounded(message, maxChars),
    role: message.role,
    sentAt: messageSentAt(message) ?? appendedAt,
  }));
}
