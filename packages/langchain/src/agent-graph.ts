import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import {
  type BaseCheckpointSaver,
  END,
  type LangGraphRunnableConfig,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { PatchbayToolNode } from './patchbay-tool-node.js';
import type { PatchbayToolkit } from './patchbay-toolkit.js';

/** Options of {@link createPatchbayAgentGraph}. */
export interface PatchbayAgentGraphOptions {
  /** Any LangChain chat model with `bindTools` (or `chatModelFromLanguageModel(aiSdkModel)`). */
  model: BaseChatModel;
  /** From `createPatchbayToolkit`. */
  toolkit: PatchbayToolkit;
  /** Needed for approvals: `interrupt()` pauses only a graph with a checkpointer (`new MemorySaver()`). */
  checkpointer?: BaseCheckpointSaver;
  /** Most model calls per user turn; default 8. The graph then ends without another call. */
  maxSteps?: number;
}

type State = typeof MessagesAnnotation.State;

/** How many model calls this turn made: AI messages after the last human message. */
function modelCallsThisTurn(messages: State['messages']): number {
  let count = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (HumanMessage.isInstance(message)) break;
    if (AIMessage.isInstance(message)) count += 1;
  }
  return count;
}

function wantsTools(state: State): 'tools' | typeof END {
  const last = state.messages.at(-1);
  if (last === undefined || !AIMessage.isInstance(last)) return END;
  return (last.tool_calls?.length ?? 0) + (last.invalid_tool_calls?.length ?? 0) > 0 ? 'tools' : END;
}

/**
 * A ready LangGraph agent with Patchbay wired in: an `agent` node that prepares every step (fresh
 * status, the context block at the tail, only runnable tools bound) and calls the model, and a
 * `tools` node ({@link PatchbayToolNode}) that runs every call through the gate, pausing with
 * `interrupt()` where a person must approve.
 */
export function createPatchbayAgentGraph(options: PatchbayAgentGraphOptions) {
  const { model, toolkit, maxSteps = 8 } = options;
  if (typeof model.bindTools !== 'function') {
    throw new TypeError('createPatchbayAgentGraph: the model has no bindTools');
  }
  const agent = async (state: State, config: LangGraphRunnableConfig): Promise<Partial<State>> => {
    if (modelCallsThisTurn(state.messages) >= maxSteps) return {};
    const step = await toolkit.prepareStep(state.messages);
    // The previous step's failures hand the turn to the user: the reply is their questions.
    if (step.plan.askUser) return { messages: [new AIMessage(step.plan.askUser.reply)] };
    const bound = step.tools.length > 0 ? model.bindTools!(step.tools) : model;
    const response = await bound.invoke(step.messages, config);
    return { messages: [response] };
  };
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', agent)
    .addNode('tools', new PatchbayToolNode(toolkit))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', wantsTools, ['tools', END])
    .addEdge('tools', 'agent')
    .compile(options.checkpointer ? { checkpointer: options.checkpointer } : {});
}
