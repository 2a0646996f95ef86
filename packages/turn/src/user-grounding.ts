import type { ErrorEnvelope } from '@patchbay/envelope';
import type { ModelMessage } from 'ai';

function valueAt(args: unknown, path: string): unknown {
  let current: unknown = args;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Text the user wrote in a message, without the stamp and the per-turn context parts. */
function userText(message: ModelMessage): string {
  if (message.role !== 'user') return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .filter((text) => !/^\[\d{4}-\d{2}-\d{2}T[\d:]+Z\]$/.test(text) && !text.startsWith('<current_time>'))
    .join('\n');
}

/** Everything the user wrote in these messages, one text, for {@link groundedInUserText}. */
export function everythingUserWrote(messages: readonly ModelMessage[]): string {
  return messages.map(userText).join('\n');
}

/** Whether every value given for the envelope's missing fields appears in what the user wrote. */
export function groundedInUserText(args: unknown, envelope: ErrorEnvelope, text: string): boolean {
  const haystack = text.toLowerCase();
  const grounded = (value: unknown): boolean => {
    if (value === undefined || value === null) return true; // still missing: the gate will ask again
    if (Array.isArray(value)) return value.every(grounded);
    if (typeof value === 'object') return true;
    const needle = String(value).toLowerCase().trim();
    // An empty value is not something the user said (every text "includes" the empty string).
    return needle !== '' && haystack.includes(needle);
  };
  return (envelope.missing ?? []).every((field) => grounded(valueAt(args, field.field)));
}
