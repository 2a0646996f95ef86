import type { ModelMessage } from 'ai';
import type { AgentView } from './turn-tools.js';

/**
 * Long-term memory as a turn sees it: what to remember from earlier sessions before the model is
 * called, and where this turn's messages go after it. Structural, so `@patchbay/turn` does not
 * depend on `@patchbay/memory` (whose `turnMemory` adapter implements it over the memory invoker).
 */
export interface ConversationMemory {
  /** The context the previous sessions left for this subject, or `undefined` when there is none. */
  context(subject: string, threadId: string, options?: { signal?: AbortSignal }): Promise<string | undefined>;
  /**
   * Hands one message of the turn to memory (the invoker's `processMessage`). The subject travels with
   * every write, as with every read, so an adapter made for another subject refuses it (throws).
   */
  record(
    subject: string,
    threadId: string,
    message: { role: 'user' | 'assistant'; content: string },
  ): Promise<void>;
  /**
   * Memory tools the chat model is not offered (e.g. the writes, left to the memory agent). They leave
   * the offer and the status block; a call of one is refused `not_offered` and never reaches the gate.
   */
  readonly withheldTools?: readonly string[];
}

/** What memory did in a turn, in `trace.memory`. A memory failure is recorded here, never thrown. */
export interface TurnMemoryTrace {
  /** `loaded` (a context reached the model), `empty` (none stored), `failed` (read failed; turn went on). */
  context: 'loaded' | 'empty' | 'failed';
  /** Messages handed to `record` successfully. */
  recorded: number;
  /** One line per failure, read or record, in order. */
  errors: string[];
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Escapes what could close the block or open a tag: stored memory is data, never markup. */
function escapeMemory(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Renders the `<memory>` block that follows the status block in the per-turn context. */
export function renderMemoryBlock(context: string): string {
  return `<memory source="previous_sessions">${escapeMemory(context)}</memory>`;
}

/** Reads the context; a failure gives no context and an error line, never a failed turn. */
export async function readTurnMemory(
  memory: ConversationMemory,
  subject: string,
  threadId: string,
  signal: AbortSignal | undefined,
): Promise<{ block: string | undefined; trace: TurnMemoryTrace }> {
  try {
    const context = await memory.context(subject, threadId, signal ? { signal } : {});
    const present = context !== undefined && context.trim() !== '';
    return {
      block: present ? renderMemoryBlock(context) : undefined,
      trace: { context: present ? 'loaded' : 'empty', recorded: 0, errors: [] },
    };
  } catch (error) {
    return {
      block: undefined,
      trace: { context: 'failed', recorded: 0, errors: [`context: ${describe(error)}`] },
    };
  }
}

/** Text of a message as memory records it (text parts only; tool calls and results stay out). */
function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * Hands the turn's user message and the reply to memory, one after the other (order matters to the
 * invoker's flush cadence). Each failure is added to the trace and the next message is still tried.
 */
export async function recordTurnMemory(
  memory: ConversationMemory,
  subject: string,
  threadId: string,
  messages: readonly { role: 'user' | 'assistant'; message: ModelMessage }[],
  trace: TurnMemoryTrace,
): Promise<void> {
  for (const { role, message } of messages) {
    const content = textOf(message);
    if (content === '') continue;
    try {
      await memory.record(subject, threadId, { role, content });
      trace.recorded += 1;
    } catch (error) {
      trace.errors.push(`record ${role}: ${describe(error)}`);
    }
  }
}

/** The agents' view without the withheld tools: neither offered nor listed in the status block. */
export function withholdTools(view: AgentView, withheld: readonly string[] | undefined): AgentView {
  if (!withheld?.length) return view;
  const hidden = new Set(withheld);
  return {
    tools: view.tools.filter(({ tool }) => !hidden.has(tool.name)),
    servers: view.servers.map((server) =>
      server.status === 'connected'
        ? { ...server, tools: server.tools.filter((name) => !hidden.has(name)) }
        : server,
    ),
  };
}
