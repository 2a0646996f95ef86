import {
  assembleMessages,
  type CacheProvider,
  contextAcknowledgement,
  type MessageLayout,
} from '@patchbay/protocol';
import type { LanguageModel, ModelMessage, SystemModelMessage, UserModelMessage } from 'ai';

/** What {@link placeStepContext} needs: the step's messages, the block to place, where, and what it placed before. */
export interface PlaceStepContextOptions {
  /** The messages the SDK is about to send (`prepareStep`'s `messages`): earlier overrides carry forward. */
  messages: readonly ModelMessage[];
  /** The instructions the step would send; only a plain string can take a cache breakpoint. */
  instructions: string;
  /** This step's `<current_time>` and `<connector_status>` block. */
  context: string;
  layout: MessageLayout;
  provider: CacheProvider;
  /** Every block placed earlier in this run: found and removed before this step's goes in. */
  placed: Set<string>;
}

/** The step's prompt: messages with exactly one context block, and the instructions when they changed. */
export interface PlacedStepContext {
  messages: ModelMessage[];
  /** Set only when the instructions gained a cache breakpoint (Anthropic, breakpoint on the system prompt). */
  instructions?: SystemModelMessage;
}

/** The cache family of a model, as the turn loop reads it, from the provider name or a gateway id. */
export function cacheProviderOf(model: LanguageModel): CacheProvider {
  const provider = (typeof model === 'string' ? model : model.provider).toLowerCase();
  if (provider.startsWith('anthropic')) return 'anthropic';
  if (provider.startsWith('openai')) return 'openai';
  if (provider.startsWith('google')) return 'google';
  return 'other';
}

/** Removes the blocks an earlier step placed; the SDK carries a `messages` override forward to every later step. */
function withoutPlacedContext(
  messages: readonly ModelMessage[],
  placed: ReadonlySet<string>,
): ModelMessage[] {
  const kept: ModelMessage[] = [];
  let droppedContextMessage = false;
  for (const message of messages) {
    const dropAcknowledgement =
      droppedContextMessage && message.role === 'assistant' && message.content === contextAcknowledgement;
    droppedContextMessage = false;
    if (dropAcknowledgement) continue;
    if (message.role !== 'user' || typeof message.content === 'string') {
      kept.push(message);
      continue;
    }
    const parts = message.content.filter((part) => !(part.type === 'text' && placed.has(part.text)));
    if (parts.length === message.content.length) kept.push(message);
    else if (parts.length > 0) kept.push({ ...message, content: parts });
    else droppedContextMessage = true;
  }
  return kept;
}

/**
 * Puts this step's context block where the cache layout wants it, using protocol's `assembleMessages`
 * as `runTurn` does: `tail` joins it to the last user message (everything before stays a cacheable
 * prefix), `after-system` puts it right after the system prompt, acknowledged. The block of the
 * previous step is removed first, so the model never reads two statuses.
 */
export function placeStepContext(options: PlaceStepContextOptions): PlacedStepContext {
  const messages = withoutPlacedContext(options.messages, options.placed);
  let last = -1;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]!.role === 'user') {
      last = index;
      break;
    }
  }
  // A run started without a user message still gets the block, as a user message of its own.
  const userMessage: UserModelMessage =
    last >= 0 ? (messages[last] as UserModelMessage) : { role: 'user', content: [] };
  const assembled = assembleMessages({
    systemPrompt: options.instructions,
    history: last >= 0 ? messages.slice(0, last) : messages,
    userMessage,
    turnContext: options.context,
    layout: options.layout,
    provider: options.provider,
  });
  options.placed.add(options.context);
  const [system, ...rest] = assembled as [SystemModelMessage, ...ModelMessage[]];
  const placed = rest.filter(
    (message) => !(message.role === 'user' && Array.isArray(message.content) && message.content.length === 0),
  );
  return {
    messages: last >= 0 ? [...placed, ...messages.slice(last + 1)] : placed,
    ...(system.providerOptions ? { instructions: system } : {}),
  };
}
