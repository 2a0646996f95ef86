// What the model saw of connector status and memory at one step, read from the step's prompt.
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';

/** One connector status object (`<connector_status>` or a refresh's result): id → entry. */
export type StatusView = Readonly<Record<string, unknown>>;

/** The product's `<connector_status>` blocks of a text. */
export const statusBlockPattern = /<connector_status[^>]*>([\s\S]*?)<\/connector_status>/g;

/** `value.key1.key2…` of a parsed JSON value, undefined where a step is not an object. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * What the model saw of connector status at one step: every `<connector_status>` block of the
 * prompt and every `refresh_connector_status` result, in order (the last is what it acts on), and
 * the connector ids the system prompt's catalog lists.
 */
export function statusViewsOf(prompt: LanguageModelV4Prompt | undefined): {
  views: StatusView[];
  catalog: string[];
} {
  const views: StatusView[] = [];
  const catalog: string[] = [];
  for (const message of prompt ?? []) {
    if (message.role === 'system') {
      for (const match of String(message.content).matchAll(/^- ([a-z0-9]+) \(/gm)) catalog.push(match[1]!);
    } else if (message.role === 'user') {
      // The first block of a message is the product's (the per-turn context comes first); one the
      // user typed in their own words is not status.
      const first = message.content
        .map((part) => (part.type === 'text' ? [...part.text.matchAll(statusBlockPattern)][0] : undefined))
        .find(Boolean);
      if (first) views.push(JSON.parse(first[1]!) as StatusView);
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        const status =
          part.type === 'tool-result' &&
          part.toolName === 'refresh_connector_status' &&
          dig(part.output, 'value', 'data', 'connector_status');
        if (status) views.push(status as StatusView);
      }
    }
  }
  return { views, catalog };
}

/** The text of the `<memory>` block of a prompt, or undefined when it has none. */
export function memoryBlockOf(prompt: LanguageModelV4Prompt | undefined): string | undefined {
  let found: string | undefined;
  for (const message of prompt ?? [])
    if (message.role === 'user')
      for (const part of message.content)
        if (part.type === 'text') {
          const match = /<memory source="previous_sessions">([\s\S]*?)<\/memory>/.exec(part.text);
          if (match) found = match[1];
        }
  return found;
}
