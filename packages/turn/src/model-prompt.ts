import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import { PatchbayError } from '@patchbay/envelope';
import type { ModelMessage } from 'ai';

type AssistantPart = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'][number];

function unsupported(role: string, type: string): never {
  throw new PatchbayError(
    'unsupported_message_part',
    `the turn runner sends text, reasoning, tool calls and tool results; a ${role} message holds a "${type}" part`,
  );
}

/**
 * Converts AI SDK messages (what `assembleMessages` produces and threads store) to the
 * language-model prompt a `LanguageModelV4` receives. The runner calls `doGenerate` itself, so
 * this is the one place the prompt takes the shape the trace records as sent.
 */
export function toLanguageModelPrompt(messages: readonly ModelMessage[]): LanguageModelV4Prompt {
  return messages.map((message): LanguageModelV4Message => {
    const providerOptions = message.providerOptions ? { providerOptions: message.providerOptions } : {};
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content, ...providerOptions };
      case 'user': {
        const parts =
          typeof message.content === 'string'
            ? [{ type: 'text' as const, text: message.content }]
            : message.content;
        return {
          role: 'user',
          content: parts.map((part) => {
            if (part.type !== 'text') unsupported('user', part.type);
            return {
              type: 'text',
              text: part.text,
              ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
            };
          }),
          ...providerOptions,
        };
      }
      case 'assistant': {
        const parts =
          typeof message.content === 'string'
            ? [{ type: 'text' as const, text: message.content }]
            : message.content;
        return {
          role: 'assistant',
          content: parts.map((part): AssistantPart => {
            const partOptions = 'providerOptions' in part ? part.providerOptions : undefined;
            const options = partOptions ? { providerOptions: partOptions } : {};
            switch (part.type) {
              case 'text':
              case 'reasoning':
                return { type: part.type, text: part.text, ...options };
              case 'tool-call':
                return {
                  type: 'tool-call',
                  toolCallId: part.toolCallId,
                  toolName: part.toolName,
                  input: part.input,
                  ...options,
                };
              case 'tool-result':
                return {
                  type: 'tool-result',
                  toolCallId: part.toolCallId,
                  toolName: part.toolName,
                  output: part.output as LanguageModelV4ToolResultOutput,
                  ...options,
                };
              default:
                return unsupported('assistant', part.type);
            }
          }),
          ...providerOptions,
        };
      }
      case 'tool':
        return {
          role: 'tool',
          content: message.content.map((part) => {
            if (part.type !== 'tool-result') unsupported('tool', part.type);
            return {
              type: 'tool-result',
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              output: part.output as LanguageModelV4ToolResultOutput,
              ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
            };
          }),
          ...providerOptions,
        };
      default:
        return unsupported('unknown', (message as { role: string }).role);
    }
  });
}
