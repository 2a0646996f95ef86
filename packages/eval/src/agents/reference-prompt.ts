// What the reference agent reads of a prompt: only what a real model gets (the system prompt with its
// connector catalog, the <connector_status> block, the tools offered, the conversation, the results).
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolCallPart,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';

/** A connector as the system prompt's catalog lists it. */
export interface CatalogEntry {
  name: string;
  can: string;
  tools: string[];
}

/** A connector's entry in the `<connector_status>` block. */
export interface StatusEntry {
  status: string;
  scopes?: string[];
  tools?: string[];
  setup_url?: string;
  would_enable?: string[];
  error?: string;
  retry_after?: string;
}

/** A tool result as the agent reads it: an envelope, or text that was not JSON. */
export interface ResultEnvelope {
  ok?: boolean;
  data?: unknown;
  error_type?: string;
  user_message?: string;
  setup_url?: string;
  retry_after_s?: number;
  issues?: Array<{ path: string; message: string }>;
  missing?: Array<{ field: string; question: string }>;
  retry_guidance?: unknown;
}

/** A tool the model is offered, as the agent reads it: its name and its input's JSON Schema. */
export interface OfferedTool {
  name: string;
  inputSchema?: { properties?: Record<string, unknown> };
}

/** Everything the agent reads of one model call. */
export interface PromptView {
  system: string;
  catalog: Record<string, CatalogEntry>;
  status: Record<string, StatusEntry>;
  /** The user's latest message. */
  current: string;
  currentTime: string | undefined;
  previousReply: string;
  previousUser: string;
  /** This turn's tool calls, and their results by call id. */
  calls: LanguageModelV4ToolCallPart[];
  results: Map<string, ResultEnvelope | undefined>;
  /** The retry guidance, while it is the latest word. */
  guidance: string | undefined;
  tools: Map<string, OfferedTool>;
  /** This turn's `<memory>` block. */
  memory: string | undefined;
}

type UserMessage = Extract<LanguageModelV4Message, { role: 'user' }>;

const textsOf = (message: LanguageModelV4Message) =>
  Array.isArray(message.content)
    ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
    : [];

export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

function textOfUser(message: LanguageModelV4Message): string {
  return textsOf(message)
    .filter((text) => !/^\[\d{4}-\d{2}-\d{2}T[\d:]+Z\]$/.test(text) && !text.startsWith('<current_time>'))
    .join('\n');
}

const isRetryGuidance = (message: LanguageModelV4Message) =>
  textsOf(message).some((text) => text.startsWith('<retry_guidance'));

/**
 * A tool result's value: JSON as sent, or text that holds JSON (frameworks that pass tool output as
 * a string, as the Agents SDK does), parsed.
 */
function resultValue(output: LanguageModelV4ToolResultOutput | undefined): ResultEnvelope | undefined {
  const value = output && 'value' in output ? output.value : undefined;
  if (output?.type !== 'text' || typeof value !== 'string') return value as ResultEnvelope | undefined;
  try {
    return JSON.parse(value) as ResultEnvelope;
  } catch {
    return value as ResultEnvelope;
  }
}

/** The catalog the system prompt lists, and the status block it holds (a framework's instructions). */
function readSystem(system: string) {
  const catalog: Record<string, CatalogEntry> = {};
  // A line ends with the tools, or with " Would enable: …." after them: the list is names only.
  const line =
    /^- ([a-z0-9]+) \(([^)]+)\): (.*?) Can: (.*?)\. Tools: ([a-z0-9_]+(?:, [a-z0-9_]+)*)\.(?: Would enable: .*)?$/gm;
  for (const match of system.matchAll(line)) {
    catalog[match[1]!] = { name: match[2]!, can: match[4]!, tools: match[5]!.split(', ') };
  }
  let status: Record<string, StatusEntry> = {};
  // A framework that puts the per-turn context in its instructions (an Agents SDK agent): read it
  // there; a block in a user message, later in the prompt, is newer.
  for (const found of system.matchAll(
    /<connector_status captured_at="[^"]*">([\s\S]*?)<\/connector_status>/g,
  )) {
    // The protocol blocks describe the tag in prose too: only a block that holds JSON is status.
    try {
      status = JSON.parse(found[1]!);
    } catch {}
  }
  return { catalog, status };
}

/** The latest status block of the user messages, and the index of the latest real user message. */
function readUserMessages(prompt: LanguageModelV4Prompt, initial: Record<string, StatusEntry>) {
  let status = initial;
  let lastUserIndex = -1;
  prompt.forEach((message, index) => {
    if (message.role !== 'user') return;
    // The product's block comes first in a message (the per-turn context); a block the user typed
    // in their own words later in the message is not status.
    for (const text of textsOf(message)) {
      const found = /<connector_status[^>]*>([\s\S]*?)<\/connector_status>/.exec(text);
      if (found) {
        status = JSON.parse(found[1]!);
        break;
      }
    }
    if (!isRetryGuidance(message)) lastUserIndex = index;
  });
  const userTexts = prompt
    .filter((message): message is UserMessage => message.role === 'user' && !isRetryGuidance(message))
    .map(textOfUser);
  return { status, lastUserIndex, userTexts };
}

/** This turn's tool calls, their results, and the retry guidance when it is the latest word. */
function readTurnCalls(after: LanguageModelV4Prompt) {
  const calls: LanguageModelV4ToolCallPart[] = [];
  const results = new Map<string, ResultEnvelope | undefined>();
  let guidance: string | undefined;
  for (const message of after) {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') calls.push(part);
    } else if (message.role === 'tool') {
      for (const part of message.content)
        if (part.type === 'tool-result') results.set(part.toolCallId, resultValue(part.output));
    } else if (message.role === 'user') {
      guidance = textOfUser(message);
    } else {
      guidance = undefined;
    }
  }
  const last = after.at(-1);
  // Guidance matters only while it is the latest word: after the retried calls it is history.
  if (last?.role !== 'user') guidance = undefined;
  // A loop Patchbay does not own (a framework's) cannot add a message between steps: the guidance
  // then rides on the latest tool results (`retry_guidance`), and is as much the latest word.
  if (guidance === undefined && last?.role === 'tool') {
    for (const part of last.content) {
      const value = part.type === 'tool-result' ? results.get(part.toolCallId) : undefined;
      if (typeof value?.retry_guidance === 'string') guidance = value.retry_guidance;
    }
  }
  return { calls, results, guidance };
}

/** The first match of `pattern` in the text parts of `messages`; the last one wins. */
function lastMatch(messages: readonly LanguageModelV4Message[], pattern: RegExp): string | undefined {
  let found: string | undefined;
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const text of textsOf(message)) {
      const match = pattern.exec(text);
      if (match) found = match[1];
    }
  }
  return found;
}

/** Reads what the prompt says: catalog, latest status, conversation, this turn's calls and results. */
export function readPrompt(call: Pick<LanguageModelV4CallOptions, 'prompt' | 'tools'>): PromptView {
  const systemMessage = call.prompt.find((message) => message.role === 'system');
  const system = systemMessage?.role === 'system' ? systemMessage.content : '';
  const fromSystem = readSystem(system);
  const { status, lastUserIndex, userTexts } = readUserMessages(call.prompt, fromSystem.status);
  const { calls, results, guidance } = readTurnCalls(call.prompt.slice(lastUserIndex + 1));
  // The previous assistant reply, to continue a question it asked.
  const before = call.prompt.slice(0, lastUserIndex);
  const previousAssistant = [...before].reverse().find((message) => message.role === 'assistant');
  const currentUser = call.prompt[lastUserIndex];
  return {
    system,
    catalog: fromSystem.catalog,
    status,
    current: userTexts.at(-1) ?? '',
    // Long-term memory: the <memory> block of this turn's context, if the turn has one.
    currentTime: lastMatch(call.prompt, /<current_time>([^<]+)<\/current_time>/),
    previousReply: previousAssistant ? textsOf(previousAssistant).join('\n') : '',
    previousUser: userTexts.at(-2) ?? '',
    calls,
    results,
    guidance,
    tools: new Map((call.tools ?? []).map((tool) => [tool.name, tool as OfferedTool])),
    memory: currentUser
      ? lastMatch([currentUser], /<memory source="previous_sessions">([\s\S]*?)<\/memory>/)
      : undefined,
  };
}
