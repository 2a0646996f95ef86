import { type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';

type ContentBlock = Exclude<BaseMessage['content'], string>[number];

function blocksOf(content: BaseMessage['content']): ContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
}

function textOf(content: BaseMessage['content']): string {
  return blocksOf(content)
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

/** Index of the last human message, -1 when there is none. */
export function lastHumanIndex(messages: readonly BaseMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (HumanMessage.isInstance(messages[index])) return index;
  }
  return -1;
}

/** Everything the user wrote in the messages, for the session's grounding check. */
export function everythingUserWrote(messages: readonly BaseMessage[]): string {
  return messages
    .filter((message) => HumanMessage.isInstance(message))
    .map((message) => textOf(message.content))
    .join('\n');
}

/**
 * The messages a toolkit built for its last step, reused by the next step when they would come out
 * the same (LangChain messages are immutable values; building one costs more than the rest of a step).
 */
export interface PlacedMessages {
  system?: { text: string; message: SystemMessage };
  human?: { source: BaseMessage; context: string; message: HumanMessage };
}

/**
 * The messages one model call is sent: the static system prompt first (a system message of the
 * graph's own joins it, since several providers take a single system prompt), then the stored
 * messages, with the per-step context as the first block of the current user message. The context
 * sits at the tail, as in `runTurn`: everything before the current user message stays a cacheable
 * prefix, and the stored state never holds a context block, so no earlier block has to be removed.
 * With `placed`, a system message or context-carrying user message equal to the last step's is that
 * same object.
 */
export function placeContext(
  systemPrompt: string,
  messages: readonly BaseMessage[],
  context: string,
  placed: PlacedMessages = {},
): BaseMessage[] {
  const rest = [...messages];
  let system = systemPrompt;
  if (rest[0] !== undefined && SystemMessage.isInstance(rest[0])) {
    system = `${systemPrompt}\n\n${textOf(rest.shift()!.content)}`;
  }
  if (placed.system?.text !== system) placed.system = { text: system, message: new SystemMessage(system) };
  const systemMessage = placed.system.message;
  const index = lastHumanIndex(rest);
  const contextBlock: ContentBlock = { type: 'text', text: context };
  if (index < 0) return [systemMessage, ...rest, new HumanMessage({ content: [contextBlock] })];
  const current = rest[index]!;
  if (placed.human?.source !== current || placed.human.context !== context) {
    placed.human = {
      source: current,
      context,
      message: new HumanMessage({
        content: [contextBlock, ...blocksOf(current.content)],
        ...(current.id !== undefined ? { id: current.id } : {}),
        ...(current.name !== undefined ? { name: current.name } : {}),
        additional_kwargs: current.additional_kwargs,
      }),
    };
  }
  rest[index] = placed.human.message;
  return [systemMessage, ...rest];
}
