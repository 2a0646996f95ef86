import { type RulePromptName, rulePromptNames, rulePrompts } from '../server/rule-prompts.js';

/** Reads one rule prompt's text by name: the one seam between the agent and where prompts come from. */
export type RulePromptLoader = (name: RulePromptName) => Promise<string>;

/** The part of an MCP SDK `Client` a loader needs. */
export interface PromptClient {
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{
    messages: { content: { type: string; text?: string } }[];
  }>;
}

/**
 * Reads rule prompts over MCP through an SDK `Client` connected to the memory server (or any server
 * serving prompts of these names). The text parts of the prompt's messages, joined.
 */
export function promptLoaderFromClient(client: PromptClient): RulePromptLoader {
  return async (name) => {
    const result = await client.getPrompt({ name });
    return result.messages
      .map((message) => (message.content.type === 'text' ? (message.content.text ?? '') : ''))
      .filter(Boolean)
      .join('\n\n');
  };
}

/** The rule prompts this package's server serves, read without a round trip (for tests and embedding). */
export const builtInPromptLoader: RulePromptLoader = async (name) => rulePrompts[name].text;

/** Loads all three rule prompts through a loader, once. */
export async function loadRulePrompts(load: RulePromptLoader): Promise<Record<RulePromptName, string>> {
  const texts = await Promise.all(rulePromptNames.map((name) => load(name)));
  return Object.fromEntries(rulePromptNames.map((name, index) => [name, texts[index]!])) as Record<
    RulePromptName,
    string
  >;
}
