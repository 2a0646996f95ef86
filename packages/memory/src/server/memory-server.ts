import type { MemoryStore } from '@patchbay/connector/ports';
import { PatchbayError } from '@patchbay/envelope';
import type { CallToolResult } from '../sdk.js';
import { McpServer } from '../sdk.js';
import { memoryTools } from './memory-tools.js';
import { rulePromptNames, rulePrompts } from './rule-prompts.js';

/** Settings of {@link createMemoryServer}. */
export interface MemoryServerOptions {
  /** Where memory lives, e.g. `openStore().memory` of `@patchbay/store`. */
  memory: MemoryStore;
  /**
   * Whose memory this server serves. Fixed for the server's life and never read from tool
   * arguments, so a client cannot reach another subject's memory by naming it.
   */
  subject: string;
  /** Server name announced in `initialize`; default `patchbay-memory`. */
  name?: string;
  /** Version announced in `initialize`; default `0.0.0`. */
  version?: string;
}

/** Error codes whose message is written for the caller and safe to show (the others may name files). */
const callerFacingCodes = new Set(['not_found', 'conflict', 'invalid_arguments']);

function errorResult(error: unknown): CallToolResult {
  const message =
    PatchbayError.isInstance(error) && callerFacingCodes.has(error.code)
      ? `${error.code}: ${error.message}`
      : 'internal_error: The memory store failed; try again later.';
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/**
 * Creates the memory server (seed 002) for one subject: the twelve tools of Mycelian's memory
 * server, `forget_entry`, and the three rule prompts. Connect it to any transport: `InMemoryTransport` in-process,
 * `StdioServerTransport` (`patchbay memory serve`), or streamable HTTP ({@link serveMemoryHttp}).
 */
export function createMemoryServer(options: MemoryServerOptions): McpServer {
  if (typeof options.subject !== 'string' || options.subject.trim() === '') {
    throw new PatchbayError('invalid_arguments', 'The memory server needs a non-empty subject.');
  }
  const server = new McpServer(
    { name: options.name ?? 'patchbay-memory', version: options.version ?? '0.0.0' },
    { capabilities: { tools: {}, prompts: {} } },
  );
  for (const tool of memoryTools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        annotations: {
          readOnlyHint: tool.readOnly,
          destructiveHint: tool.destructive ?? false,
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const result = await tool.run(options.memory, options.subject, args);
          return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
        } catch (error) {
          return errorResult(error);
        }
      },
    );
  }
  for (const name of rulePromptNames) {
    const prompt = rulePrompts[name];
    server.registerPrompt(name, { description: prompt.description }, () => ({
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.text } }],
    }));
  }
  return server;
}
