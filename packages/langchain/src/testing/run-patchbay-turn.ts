import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Command, INTERRUPT, isInterrupted, MemorySaver } from '@langchain/langgraph';
import type { FrameworkTurnOptions, FrameworkTurnRun } from '@patchbay/turn/testing';
import { createPatchbayAgentGraph } from '../agent-graph.js';
import { chatModelFromLanguageModel } from '../language-model-chat-model.js';
import { createPatchbayToolkit, type PatchbayApprovalRequest } from '../patchbay-toolkit.js';

/** What one user turn through LangGraph did: the runner contract of `@patchbay/turn/testing`. */
export type PatchbayTurnRun = FrameworkTurnRun;

/** Options of {@link runPatchbayTurn}: the runner contract of `@patchbay/turn/testing`. */
export type RunPatchbayTurnOptions = FrameworkTurnOptions;

/** The session's default cap of calls per model step (`maxCallsPerStep`). */
const maxCallsPerStep = 16;

function textOf(message: AIMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

/**
 * Runs one user turn through LangGraph's own loop with this package wired in: the ready agent graph
 * with a `MemorySaver`, the AI SDK model behind `chatModelFromLanguageModel`, and approvals as
 * `interrupt()` resumed with `Command({ resume })` carrying the person's decision.
 */
export async function runPatchbayTurn(options: RunPatchbayTurnOptions): Promise<PatchbayTurnRun> {
  const { model, message, approve, maxSteps = 8, history = [], ...sessionOptions } = options;
  const toolkit = await createPatchbayToolkit(sessionOptions);
  const graph = createPatchbayAgentGraph({
    model: chatModelFromLanguageModel(model),
    toolkit,
    checkpointer: new MemorySaver(),
    maxSteps,
  });
  // Two super-steps per model call (agent, tools) and the final agent step: maxSteps ends the loop first.
  const config = { configurable: { thread_id: randomUUID() }, recursionLimit: maxSteps * 2 + 2 };
  const earlier = history.map((entry) =>
    entry.role === 'user' ? new HumanMessage(entry.content) : new AIMessage(entry.content),
  );
  let state = await graph.invoke({ messages: [...earlier, new HumanMessage(message)] }, config);
  const pendingApprovals: PatchbayTurnRun['pendingApprovals'] = [];
  // Each resume answers one pause and each pause is one call of the model's: bounded by the step limits.
  for (let resumes = 0; resumes < maxSteps * maxCallsPerStep; resumes += 1) {
    if (!isInterrupted<PatchbayApprovalRequest>(state)) break;
    const interrupts = state[INTERRUPT];
    const requests = interrupts.map((pause) => ({ toolName: pause.value!.tool, input: pause.value!.args }));
    if (approve === undefined) {
      pendingApprovals.push(...requests);
      break;
    }
    const decisions: { approved: boolean }[] = [];
    for (const request of requests) decisions.push({ approved: (await approve(request)) === true });
    // One pause resumes with its value; several (parallel nodes) with a map keyed by interrupt id.
    const resume =
      interrupts.length === 1
        ? decisions[0]
        : Object.fromEntries(interrupts.map((pause, index) => [pause.id!, decisions[index]]));
    state = await graph.invoke(new Command({ resume }), config);
  }
  const last = state.messages.findLast((entry) => AIMessage.isInstance(entry));
  const afterUser = state.messages.findLastIndex((entry) => HumanMessage.isInstance(entry));
  const lastIndex = last === undefined ? -1 : state.messages.lastIndexOf(last);
  return {
    reply: last !== undefined && lastIndex > afterUser ? textOf(last as AIMessage) : '',
    calls: toolkit.session.calls,
    steps: [...toolkit.steps],
    pendingApprovals,
  };
}
