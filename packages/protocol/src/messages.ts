import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import { messageSentAt } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import type { ModelMessage, TextPart, UserModelMessage } from 'ai';
import { toIsoSeconds } from './iso-time.js';

/** Layout of an assembled prompt: per-turn context at the tail (default) or right after the system prompt. */
export type MessageLayout = 'tail' | 'after-system';

/** Provider families whose cache markers {@link assembleMessages} knows how to place. */
export type CacheProvider = 'anthropic' | 'openai' | 'google' | 'other';

/** The Anthropic cache breakpoint, as the AI SDK's Anthropic provider reads it. */
export const anthropicCacheBreakpoint: SharedV4ProviderOptions = Object.freeze({
  anthropic: { cacheControl: { type: 'ephemeral' } },
}) as SharedV4ProviderOptions;

/**
 * Produces the stored form of a message: a leading `[2026-11-21T15:00:00Z]` text part with the time
 * it was sent. Stamp once when storing and keep the result: the history then re-assembles to the
 * same bytes every turn. Stamping a stamped message returns it unchanged. Tool messages can hold
 * only tool results and are returned as they are; the assistant message that made the call is stamped.
 */
export function stampMessage<Message extends ModelMessage>(
  message: Message,
  sentAt: Date | string | number,
): Message {
  if (messageSentAt(message) !== undefined || message.role === 'tool') return message;
  const stamp = `[${toIsoSeconds(sentAt)}]`;
  if (message.role === 'system') return { ...message, content: `${stamp} ${message.content}` };
  const parts =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  return { ...message, content: [{ type: 'text', text: stamp }, ...parts] } as Message;
}

/** Arguments of {@link assembleMessages}. */
export interface AssembleMessagesOptions {
  /** From `buildSystemPrompt`; the same string every turn. */
  systemPrompt: string;
  /** Earlier messages in stored (stamped) form, oldest first. Not modified. */
  history: readonly ModelMessage[];
  /** The current user message: text, or a (preferably stamped) user message. */
  userMessage: string | UserModelMessage;
  /** From `renderTurnContext`, captured this turn. */
  turnContext: string;
  /** `tail` (default) keeps the history a cacheable prefix; `after-system` is the seed layout. */
  layout?: MessageLayout;
  /** Places cache breakpoints for this provider; only `anthropic` needs explicit ones. */
  provider?: CacheProvider;
}

/** Text that answers the context message in the `after-system` layout, so roles keep alternating. */
export const contextAcknowledgement = 'Understood. I will go by this status and time.';

function withBreakpoint<Message extends ModelMessage>(message: Message): Message {
  return {
    ...message,
    providerOptions: { ...message.providerOptions, ...anthropicCacheBreakpoint },
  };
}

function userParts(message: string | UserModelMessage): Exclude<UserModelMessage['content'], string> {
  if (typeof message === 'string') return [{ type: 'text', text: message }];
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/**
 * Assembles AI SDK messages for one turn. `tail`: system prompt, history, then the current user
 * message with the turn context as a separate text part before the user's text, so everything up
 * to the new message is a byte-identical prefix of the next turn. `after-system`: the context right
 * after the system prompt (acknowledged), then history and the user message; cheaper to read but
 * the per-turn time breaks the cache there. With `provider: 'anthropic'` the last block that stays
 * the same next turn carries the cache breakpoint: the last history message (tail) or the system
 * prompt (after-system, or tail with no history yet).
 */
export function assembleMessages(options: AssembleMessagesOptions): ModelMessage[] {
  const layout = options.layout ?? 'tail';
  if (layout !== 'tail' && layout !== 'after-system') {
    throw new PatchbayError(
      'invalid_arguments',
      `unknown layout "${String(layout)}"; expected tail or after-system`,
    );
  }
  const anthropic = options.provider === 'anthropic';
  const system: ModelMessage = { role: 'system', content: options.systemPrompt };
  const history = [...options.history];
  const contextPart: TextPart = { type: 'text', text: options.turnContext };
  const userProviderOptions =
    typeof options.userMessage === 'string' ? undefined : options.userMessage.providerOptions;

  if (layout === 'after-system') {
    const user: UserModelMessage = {
      role: 'user',
      content: userParts(options.userMessage),
      ...(userProviderOptions ? { providerOptions: userProviderOptions } : {}),
    };
    return [
      anthropic ? withBreakpoint(system) : system,
      { role: 'user', content: [contextPart] },
      { role: 'assistant', content: contextAcknowledgement },
      ...history,
      user,
    ];
  }

  const user: UserModelMessage = {
    role: 'user',
    content: [contextPart, ...userParts(options.userMessage)],
    ...(userProviderOptions ? { providerOptions: userProviderOptions } : {}),
  };
  if (!anthropic) return [system, ...history, user];
  if (history.length === 0) return [withBreakpoint(system), user];
  const last = history.length - 1;
  history[last] = withBreakpoint(history[last]!);
  return [system, ...history, user];
}
