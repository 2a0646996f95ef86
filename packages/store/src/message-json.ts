import type { StoredMessage } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';

/** How a stored message row is encoded: plain JSON, or JSON with tagged bytes and URLs. */
export type MessageFormat = 'json' | 'tagged';

const tagKey = '$patchbay';
const roles = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Serialises a model message for a row. Image and file parts may hold bytes or a URL, which plain
 * JSON would turn into an object of numbers or a bare string; those are written as tagged objects
 * and the row is marked `tagged`, so rows without them are read back with no reviver at all and a
 * tool result that happens to look like a tag is never misread.
 */
export function encodeMessage(message: StoredMessage): { json: string; format: MessageFormat } {
  if (typeof message !== 'object' || message === null || !roles.has((message as { role?: string }).role!)) {
    throw new PatchbayError(
      'invalid_arguments',
      'A thread message must be an object with a model message role.',
    );
  }
  let tagged = false;
  const json = JSON.stringify(message, function replace(this: Record<string, unknown>, key, value) {
    // `this[key]` is the value before toJSON ran (a Buffer's toJSON would already have flattened it).
    const original = this[key];
    if (original instanceof Uint8Array || original instanceof ArrayBuffer) {
      tagged = true;
      const bytes = original instanceof ArrayBuffer ? new Uint8Array(original) : original;
      return {
        [tagKey]: 'bytes',
        base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
      };
    }
    if (original instanceof URL) {
      tagged = true;
      return { [tagKey]: 'url', href: original.href };
    }
    return value;
  });
  return { json, format: tagged ? 'tagged' : 'json' };
}

/** Reads a stored row back into the message it was made from. */
export function decodeMessage(json: string, format: MessageFormat): StoredMessage {
  if (format === 'json') return JSON.parse(json) as StoredMessage;
  return JSON.parse(json, (_key, value) => {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, tagKey)) return value;
    const tag = value as { [tagKey]: string; base64?: string; href?: string };
    if (tag[tagKey] === 'bytes' && typeof tag.base64 === 'string') {
      return new Uint8Array(Buffer.from(tag.base64, 'base64'));
    }
    if (tag[tagKey] === 'url' && typeof tag.href === 'string') return new URL(tag.href);
    return value;
  }) as StoredMessage;
}
