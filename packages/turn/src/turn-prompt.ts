import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { StatusSnapshot } from '@patchbay/connector';
import {
  assembleMessages,
  buildSystemPrompt,
  type CacheProvider,
  renderTurnContext,
  type ServerStatus,
  stampMessage,
} from '@patchbay/protocol';
import type { ModelMessage } from 'ai';
import type { RunTurnOptions } from './turn-types.js';
import { everythingUserWrote } from './user-grounding.js';

/** Who the agent is when a deployment says nothing: the first section of the built system prompt. */
export const defaultIdentity =
  'You are an assistant that helps the user get work done through the services they have connected.';

function cacheProviderOf(model: LanguageModelV4): CacheProvider {
  const provider = model.provider.toLowerCase();
  if (provider.startsWith('anthropic')) return 'anthropic';
  if (provider.startsWith('openai')) return 'openai';
  if (provider.startsWith('google')) return 'google';
  return 'other';
}

/** The fixed start of every prompt of a turn, and what the user wrote. */
export interface TurnPrompt {
  /** System prompt, history and this turn's user message with its per-turn context. */
  base: ModelMessage[];
  /** The user's message as stored: stamped, without the per-turn context. */
  userMessage: ModelMessage;
  /** Everything the user wrote in the thread and this turn, for the grounding check. */
  userText: string;
}

/**
 * Builds the static system prompt (or takes the caller's) and assembles it with the history and the
 * stamped user message, the per-turn context block rendered from the status captured at the start
 * (and followed by the `<memory>` block, when given).
 */
export function buildTurnPrompt(
  options: RunTurnOptions,
  history: readonly ModelMessage[],
  status: { snapshot: StatusSnapshot; agents: { servers: readonly ServerStatus[] } },
  clock: () => Date,
  memoryBlock?: string,
): TurnPrompt {
  const { connectors } = options;
  const builtWithCatalog = options.systemPrompt === undefined && options.catalog === true;
  const systemPrompt =
    options.systemPrompt ??
    buildSystemPrompt({
      identity: options.identity ?? defaultIdentity,
      ...(builtWithCatalog ? { catalog: connectors } : {}),
    });
  // Only a prompt that lists every would_enable entry lets the per-turn block drop all but the first.
  const catalogInSystemPrompt =
    builtWithCatalog || (options.systemPrompt !== undefined && options.catalogInSystemPrompt === true);
  const userMessage = stampMessage({ role: 'user', content: options.message }, clock());
  const base = assembleMessages({
    systemPrompt,
    history: [...history],
    userMessage,
    // Memory is per-turn context like the status: after it, so the cacheable prefix is unchanged.
    turnContext:
      renderTurnContext(status.snapshot, {
        ...options.statusBlock,
        connectors,
        catalogInSystemPrompt,
        servers: status.agents.servers,
      }) + (memoryBlock === undefined ? '' : `\n${memoryBlock}`),
    ...(options.layout ? { layout: options.layout } : {}),
    provider: cacheProviderOf(options.model),
  });
  return { base, userMessage, userText: everythingUserWrote([...history, userMessage]) };
}
