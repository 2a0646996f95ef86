import type { JsonSchema } from '@patchbay/connector';
import type { MemoryStore } from '@patchbay/connector/ports';
import { type Envelope, failure, PatchbayError, success, toEnvelope } from '@patchbay/envelope';
import type { Agent, AgentCallContext, AgentTool } from '@patchbay/orchestrator';
import { z } from 'zod';
import type { CallToolResult, McpServer } from '../sdk.js';
import { Client, InMemoryTransport } from '../sdk.js';
import { createMemoryServer } from './memory-server.js';
import { memoryTools } from './memory-tools.js';

/** Settings of {@link memoryServerAgent}. */
export interface MemoryServerAgentOptions {
  /** Where memory lives, e.g. `openStore().memory` of `@patchbay/store`. */
  memory: MemoryStore;
  /** Agent id in the orchestrator; default `memory` (the connector id the status block shows). */
  id?: string;
}

/** An orchestrator agent serving the memory server in-process, one MCP session per subject. */
export interface MemoryServerAgent extends Agent {
  /** The MCP client of a subject's session, connected on first use (rule prompts are read through it). */
  clientFor(subject: string): Promise<Client>;
}

/** Error types a tool's `code: message` answer may carry; anything else is reported as upstream. */
const knownErrorTypes = new Set(['not_found', 'conflict', 'invalid_arguments', 'internal_error']);

/** Maps a memory tool's MCP result to an envelope: its structured content, or its typed error. */
export function envelopeOfMemoryResult(result: CallToolResult): Envelope {
  const first = result.content?.[0];
  const text = first?.type === 'text' ? first.text : '';
  if (result.isError) {
    const [code, ...rest] = text.split(': ');
    const errorType = knownErrorTypes.has(code ?? '') ? code : 'upstream_error';
    return failure(errorType as 'not_found', { userMessage: rest.join(': ') || text });
  }
  return success(result.structuredContent ?? text);
}

function agentTools(): AgentTool[] {
  return memoryTools.map((tool) => {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(z.object(tool.input), {
      io: 'input',
    }) as JsonSchema;
    return {
      name: tool.name,
      description: tool.description,
      inputJsonSchema: schema,
      // A delete is destructive: the gate makes a proposal a person approves before it runs.
      effect: tool.destructive ? 'destructive' : tool.readOnly ? 'read' : 'write',
      requiredScopes: [],
      requires: [],
      annotations: {
        readOnlyHint: tool.readOnly,
        destructiveHint: tool.destructive ?? false,
        openWorldHint: false,
      },
    };
  });
}

/**
 * The memory server as an orchestrator agent, without a child process: each subject the gate
 * calls for gets its own in-process MCP session (an SDK `Client` linked to a server bound to that
 * subject), so the subject comes from the gate, never from the model's arguments. Trusted: its
 * writes only ever append to the caller's own memory; its one delete, `forget_entry`, is destructive,
 * so the gate still asks a person first.
 */
export function memoryServerAgent(options: MemoryServerAgentOptions): MemoryServerAgent {
  const id = options.id ?? 'memory';
  const tools = agentTools();
  const sessions = new Map<string, Promise<{ client: Client; server: McpServer }>>();
  let stopped = false;

  function session(subject: string) {
    let open = sessions.get(subject);
    if (!open) {
      open = (async () => {
        const server = createMemoryServer({ memory: options.memory, subject });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const client = new Client({ name: 'patchbay-memory-agent', version: '0.0.0' });
        await server.connect(serverSide);
        await client.connect(clientSide);
        return { client, server };
      })();
      // A failed connection is not cached: the next call tries again.
      open.catch(() => sessions.delete(subject));
      sessions.set(subject, open);
    }
    return open;
  }

  return {
    id,
    trusted: true,
    async initialize() {
      stopped = false;
    },
    async shutdown() {
      stopped = true;
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(
        open.map(async (pending) => {
          const { client, server } = await pending.catch(() => ({ client: undefined, server: undefined }));
          await client?.close().catch(() => undefined);
          await server?.close().catch(() => undefined);
        }),
      );
    },
    async health() {
      return { status: stopped ? 'stopped' : 'up' };
    },
    // Read by the turn's status block: a stopped memory server is memory the turn cannot reach, so it
    // shows as `unavailable` (as a remote one that is down does) rather than vanishing, which the
    // model would read as "this user has no memory".
    observedHealth() {
      return stopped ? { status: 'down', detail: 'The memory server is stopped.' } : { status: 'up' };
    },
    manifest() {
      return { id, kind: 'mcp', tools };
    },
    async clientFor(subject) {
      if (stopped) throw new PatchbayError('tool_unavailable', 'The memory server is stopped.');
      return (await session(subject)).client;
    },
    async execute(toolName: string, args: unknown, context: AgentCallContext): Promise<Envelope> {
      // After shutdown no session is opened again: a stopped server serves nothing until initialized.
      if (stopped) {
        return failure('tool_unavailable', {
          connector: id,
          userMessage: 'Memory is not available right now: its server is stopped.',
          retryable: false,
        });
      }
      try {
        const { client } = await session(context.subject);
        const result = (await client.callTool(
          { name: toolName, arguments: (args ?? {}) as Record<string, unknown> },
          undefined,
          { signal: context.signal },
        )) as CallToolResult;
        return envelopeOfMemoryResult(result);
      } catch (error) {
        return toEnvelope(error);
      }
    },
  };
}
