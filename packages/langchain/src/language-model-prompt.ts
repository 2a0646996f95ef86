import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { PatchbayError } from '@patchbay/envelope';
import type { LanguageModelMessage } from './language-model-types.js';

type UserPart = Extract<LanguageModelMessage, { role: 'user' }>['content'][number];
type AssistantPart = Extract<LanguageModelMessage, { role: 'assistant' }>['content'][number];
type ToolResultPart = Extract<
  Extract<LanguageModelMessage, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>;

function unsupported(role: string, kind: string): never {
  throw new PatchbayError(
    'unsupported_message_part',
    `the LangChain bridge sends text, tool calls and tool results; a ${role} message holds a "${kind}" part`,
  );
}

/** The text blocks of a LangChain message's content, each kept as its own part. */
function textBlocks(content: BaseMessage['content'], role: string): string[] {
  if (typeof content === 'string') return content === '' ? [] : [content];
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') texts.push(block);
    else if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    // Providers hand reasoning and tool-use echoes back in content; the tool calls travel in tool_calls.
    else if (block.type === 'reasoning' || block.type === 'thinking' || block.type === 'tool_use') continue;
    else unsupported(role, String(block.type));
  }
  return texts;
}

/**
 * What a tool message says, for the model: the envelope JSON as a JSON value (as `runTurn` sends
 * it), other text as text.
 */
function toolOutput(content: string): ToolResultPart['output'] {
  try {
    return { type: 'json', value: JSON.parse(content) };
  } catch {
    return { type: 'text', value: content };
  }
}

/**
 * Converts LangChain messages to the prompt an AI SDK language model receives: system text, user
 * text parts (each block its own part, so a context block stays apart from what the user wrote),
 * assistant text and tool calls, and tool results grouped per step.
 */
export function toLanguageModelPrompt(messages: readonly BaseMessage[]): LanguageModelMessage[] {
  const prompt: LanguageModelMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    if (SystemMessage.isInstance(message)) {
      prompt.push({ role: 'system', content: textBlocks(message.content, 'system').join('\n') });
    } else if (HumanMessage.isInstance(message)) {
      const content: UserPart[] = textBlocks(message.content, 'user').map((text) => ({ type: 'text', text }));
      prompt.push({ role: 'user', content });
    } else if (AIMessage.isInstance(message)) {
      const content: AssistantPart[] = textBlocks(message.content, 'assistant').map((text) => ({
        type: 'text',
        text,
      }));
      for (const call of message.tool_calls ?? []) {
        const toolCallId = call.id ?? `${call.name}-${toolNames.size}`;
        toolNames.set(toolCallId, call.name);
        content.push({ type: 'tool-call', toolCallId, toolName: call.name, input: call.args });
      }
      // A call whose arguments were not JSON is still part of the conversation: the gate answered it.
      for (const call of message.invalid_tool_calls ?? []) {
        if (call.id === undefined || call.name === undefined) continue;
        toolNames.set(call.id, call.name);
        content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.args ?? '' });
      }
      prompt.push({ role: 'assistant', content });
    } else if (ToolMessage.isInstance(message)) {
      const part: ToolResultPart = {
        type: 'tool-result',
        toolCallId: message.tool_call_id,
        toolName: message.name ?? toolNames.get(message.tool_call_id) ?? '',
        output: toolOutput(textBlocks(message.content, 'tool').join('')),
      };
      const previous = prompt.at(-1);
      if (previous?.role === 'tool') previous.content.push(part);
      else prompt.push({ role: 'tool', content: [part] });
    } else {
      unsupported(message.type, message.type);
    }
  }
  return prompt;
}
