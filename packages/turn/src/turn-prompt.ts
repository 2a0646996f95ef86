import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { StatusSnapshot } from '@patchbay/connector';
import {
  assembleMessages,
  buildSystemPrompt,
  type CacheProvider,
  renderTurnContext,
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

/** Built system prompts by connector list, then identity and catalog: a turn per request need not rebuild one. */
const staticPrompts = new WeakMap<RunTurnOptions['connectors'], Map<string, string>>();

/**
 * The static system prompt of a deployment: the same for every turn of the same connectors, identity
 * and catalog choice (it is byte-stable by design), so it is built once per combination (~25 µs
 * saved per turn, measured).
 */
export function staticPromptOf(
  connectors: RunTurnOptions['connectors'],
  identity: string | undefined,
  catalog: boolean,
): string {
  let built = staticPrompts.get(connectors);
  if (!built) {
    built = new Map();
    staticPrompts.set(connectors, built);
  }
  const key = `${catalog ? 'catalog' : 'plain'}\u0000${identity ?? ''}`;
  let prompt = built.get(key);
  if (prompt === undefined) {
    prompt = buildSystemPrompt({
      identity: identity ?? defaultIdentity,
      ...(catalog ? { catalog: connectors } : {}),
    });
    built.set(key, prompt);
  }
  return prompt;
}

/**
 * Whether the system prompt lists every `would_enable` entry (built with the catalog, or the caller's
 * own prompt that says so): only then may the per-turn block drop all but the first.
 */
export function catalogInSystemPromptOf(
  options: Pick<RunTurnOptions, 'systemPrompt' | 'catalog' | 'catalogInSystemPrompt'>,
): boolean {
  return options.systemPrompt === undefined
    ? options.catalog === true
    : options.catalogInSystemPrompt === true;
}

/**
 * Builds the static system prompt (or takes the caller's) and assembles it with the history and the
 * stamped user message, the per-turn context block rendered from the status captured at the start
 * (its JSON as the status view rendered it; followed by the `<memory>` block, when given).
 */
export function buildTurnPrompt(
  options: RunTurnOptions,
  history: readonly ModelMessage[],
  status: { snapshot: StatusSnapshot; view: { contextJson: string } },
  clock: () => Date,
  memoryBlock?: string,
): TurnPrompt {
  const { connectors } = options;
  const systemPrompt =
    options.systemPrompt ?? staticPromptOf(connectors, options.identity, options.catalog === true);
  const userMessage = stampMessage({ role: 'user', content: options.message }, clock());
  const base = assembleMessages({
    systemPrompt,
    history: [...history],
    userMessage,
    // Memory is per-turn context like the status: after it, so the cacheable prefix is unchanged.
    turnContext:
      renderTurnContext(status.snapshot, { connectors, statusJson: status.view.contextJson }) +
      (memoryBlock === undefined ? '' : `\n${memoryBlock}`),
    ...(options.layout ? { layout: options.layout } : {}),
    provider: cacheProviderOf(options.model),
  });
  return { base, userMessage, userText: everythingUserWrote([...history, userMessage]) };
}
