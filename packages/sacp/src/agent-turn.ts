import { PatchbayError } from '@patchbay/envelope';
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

const finalReplyNudge =
  'You have used all the tool calls available for this step. Do not call any more tools: give your final reply now, in the required JSON reply format.';

/**
 * Runs one agent turn with the AI SDK's `generateText`: a tool loop of up to `maxToolSteps` steps,
 * then, if the model was still calling tools, one more call without tools for the final reply.
 */
export async function runAgentTurnWithModel(request: RunAgentRequest): Promise<RunAgentResult> {
  const { model } = request;
  if (!model) {
    throw new PatchbayError(
      'sacp_invalid_chain',
      `Agent node "${request.nodeId}" has no model and the chain has no runAgent hook.`,
    );
  }
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
