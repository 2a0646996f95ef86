import { type ErrorEnvelope, failure, PatchbayError } from '@patchbay/envelope';
import { generateText, type LanguageModel, type ModelMessage, stepCountIs, type ToolSet } from 'ai';

/** A tool result kept from an agent's tool loop (snake_case: it may be carried into `data.tool_outputs`). */
export interface ToolOutput {
  tool_name: string;
  input: unknown;
  output: unknown;
}

/** Executes a tool by name; lets the orchestrator (or any gate) run tools that are declared without `execute`. */
export type CallTool = (name: string, args: unknown) => Promise<unknown>;

/** One agent turn to run: the model, the system prompt (protocol included), the conversation and the tools. */
export interface RunAgentRequest {
  nodeId: string;
  model?: LanguageModel | undefined;
  /** System prompt with the SACP protocol block appended. */
  system: string;
  messages: ModelMessage[];
  tools?: ToolSet | undefined;
  callTool?: CallTool | undefined;
  /** Most model steps that may call tools before the final reply is demanded. */
  maxToolSteps: number;
  correlationId: string;
  signal?: AbortSignal | undefined;
  /**
   * 0 (or absent) for a node's first turn; n for its n-th re-ask, a turn that only asks for the reply
   * again in the required format. A re-ask must run no tool call: the calls of the earlier turns and
   * their results are already in `messages`, and a write the model sends again would reach the
   * service twice. Both built-in runners answer a re-ask's calls without running them; a hook of
   * your own must do the same.
   */
  reask?: number | undefined;
}

/** What a turn produced: the final text (which must be SACP), the messages it added, and tool results. */
export interface RunAgentResult {
  text: string;
  /** Assistant/tool messages the turn produced; kept so a re-ask continues the same conversation. */
  responseMessages?: ModelMessage[] | undefined;
  toolOutputs?: ToolOutput[] | undefined;
}

/** Hook that runs one agent turn; the orchestrator's turn runner plugs in here. */
export type RunAgentHook = (request: RunAgentRequest) => Promise<RunAgentResult>;

/** The answer to a tool call made in a re-ask turn: not run, and why. */
export function reaskCallRefusal(toolName: string): ErrorEnvelope {
  return failure('conflict', {
    userMessage: `${toolName} was not run: this turn only asks for your reply again in the required format, and runs no tool. The results of your earlier calls are above; do not call tools, send the reply.`,
    retryable: false,
  });
}

const finalReplyNudge =
  'You have used all the tool calls available for this step. Do not call any more tools: give your final reply now, in the required JSON reply format.';

/**
 * Runs one agent turn with the AI SDK's `generateText`: a tool loop of up to `maxToolSteps` steps,
 * then, if the model was still calling tools, one more call without tools for the final reply. A
 * re-ask (`request.reask > 0`) is one call in which no tool can run.
 */
export async function runAgentTurnWithModel(request: RunAgentRequest): Promise<RunAgentResult> {
  const { model } = request;
  if (!model) {
    throw new PatchbayError(
      'sacp_invalid_chain',
      `Agent node "${request.nodeId}" has no model and the chain has no runAgent hook.`,
    );
  }
  if ((request.reask ?? 0) > 0) return reaskWithModel(model, request);
  const tools = bindCallTool(request.tools, request.callTool);
  const hasTools = tools !== undefined && Object.keys(tools).length > 0;
  const first = await generateText({
    model,
    instructions: request.system,
    messages: request.messages,
    ...(hasTools ? { tools, stopWhen: stepCountIs(Math.max(1, request.maxToolSteps)) } : {}),
    ...(request.signal ? { abortSignal: request.signal } : {}),
  });
  const toolOutputs: ToolOutput[] = first.steps.flatMap((step) =>
    step.toolResults.map((result) => ({
      tool_name: result.toolName,
      input: result.input,
      output: result.output,
    })),
  );
  const responseMessages: ModelMessage[] = [...first.responseMessages];
  if (!hasTools || first.finishReason !== 'tool-calls') {
    return { text: first.text, responseMessages, toolOutputs };
  }
  const nudge: ModelMessage = { role: 'user', content: finalReplyNudge };
  const synthesis = await generateText({
    model,
    instructions: request.system,
    messages: [...request.messages, ...responseMessages, nudge],
    tools,
    toolChoice: 'none',
    ...(request.signal ? { abortSignal: request.signal } : {}),
  });
  return {
    text: synthesis.text,
    responseMessages: [...responseMessages, nudge, ...synthesis.responseMessages],
    toolOutputs,
  };
}

// The tools stay declared (providers refuse a conversation holding tool calls when no tool is
// declared), but each one answers with a refusal instead of running: a call the model makes anyway
// gets a result it can read, and a write of the first turn cannot happen again. Two steps, so a
// model that calls once and reads the refusal can still send its reply. Not `toolChoice: 'none'`:
// the AI SDK throws on a model that calls a tool anyway, which would fail the node instead.
async function reaskWithModel(model: LanguageModel, request: RunAgentRequest): Promise<RunAgentResult> {
  const refusing = refusingTools(request.tools);
  const hasTools = refusing !== undefined && Object.keys(refusing).length > 0;
  const result = await generateText({
    model,
    instructions: request.system,
    messages: request.messages,
    ...(hasTools ? { tools: refusing, stopWhen: stepCountIs(2) } : {}),
    ...(request.signal ? { abortSignal: request.signal } : {}),
  });
  return { text: result.text, responseMessages: [...result.responseMessages], toolOutputs: [] };
}

function refusingTools(tools: ToolSet | undefined): ToolSet | undefined {
  if (!tools) return undefined;
  const refusing: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    refusing[name] = { ...definition, execute: async () => reaskCallRefusal(name) } as ToolSet[string];
  }
  return refusing;
}

// Tools declared without `execute` are run through `callTool`, so one gate can execute them all.
function bindCallTool(tools: ToolSet | undefined, callTool: CallTool | undefined): ToolSet | undefined {
  if (!tools || !callTool) return tools;
  const bound: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    bound[name] = definition.execute
      ? definition
      : ({ ...definition, execute: (input: unknown) => callTool(name, input) } as ToolSet[string]);
  }
  return bound;
}
