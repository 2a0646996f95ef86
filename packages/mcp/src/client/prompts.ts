import { PatchbayError } from '@patchbay/envelope';
import type { Client, GetPromptResult, Prompt } from '../sdk.js';

const maxPages = 100;

function requireClient(client: Client | undefined, server: string): Client {
  if (!client) {
    throw new PatchbayError('tool_unavailable', `The MCP server "${server}" is not connected right now.`);
  }
  return client;
}

function upstream(error: unknown, server: string, what: string): PatchbayError {
  // The server's own message may quote what it was given; the caller redacts before showing it.
  const reason = error instanceof Error ? `: ${error.message.replace(/\s+/g, ' ').slice(0, 300)}` : '';
  return new PatchbayError('upstream_error', `The MCP server "${server}" could not ${what}${reason}`, {
    cause: error,
  });
}

/**
 * Every prompt the server offers (`prompts/list`, all pages). A server that declares no prompts
 * capability has none: asking it anyway would be a protocol error, not an empty list.
 */
export async function listPrompts(
  client: Client | undefined,
  server: string,
  timeout: number,
): Promise<Prompt[]> {
  const live = requireClient(client, server);
  if (!live.getServerCapabilities()?.prompts) return [];
  const prompts: Prompt[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < maxPages; page += 1) {
      const result = await live.listPrompts(cursor === undefined ? {} : { cursor }, { timeout });
      prompts.push(...result.prompts);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
  } catch (error) {
    throw upstream(error, server, 'list its prompts');
  }
  return prompts;
}

/** One prompt rendered with its arguments (`prompts/get`). */
export async function getPrompt(
  client: Client | undefined,
  server: string,
  timeout: number,
  name: string,
  args: Record<string, string> | undefined,
): Promise<GetPromptResult> {
  const live = requireClient(client, server);
  if (!live.getServerCapabilities()?.prompts) {
    throw new PatchbayError('not_found', `The MCP server "${server}" offers no prompts.`);
  }
  try {
    return await live.getPrompt({ name, ...(args ? { arguments: args } : {}) }, { timeout });
  } catch (error) {
    throw upstream(error, server, `return the prompt "${name}"`);
  }
}
