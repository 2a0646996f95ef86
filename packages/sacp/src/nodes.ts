import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type { CallTool, RunAgentHook, ToolOutput } from './agent-turn.js';
import { reaskCallRefusal, runAgentTurnWithModel } from './agent-turn.js';
import type { DataSchema } from './data-schema.js';
import { formatIssues, type SacpIssue } from './issues.js';
import { parseSacp, type SacpRepair } from './parse-sacp.js';
import { withSacpProtocol } from './protocol-prompt.js';
import { buildReaskInstruction } from './reask.js';
import { type SacpReply, sacpReplySchema } from './reply.js';
import type { InputTemplate } from './template.js';

/** A chain node backed by a model: it runs the model (with optional tools) and parses its SACP reply. */
export interface AgentNode {
  kind?: 'agent';
  /** AI SDK language model; optional when the chain has a `runAgent` hook. */
  model?: LanguageModel | undefined;
  /** The agent's own system prompt; the SACP protocol block is appended to it. */
  system: string;
  /** Input template; defaults to `{{input}}` for the start node and the previous reply for others. */
  input?: InputTemplate | undefined;
  /** Schema of this agent's `data`: listed in the prompt and enforced with re-asks. */
  dataSchema?: DataSchema | undefined;
  /** AI SDK tools; those without `execute` are run through `callTool`. */
  tools?: ToolSet | undefined;
  callTool?: CallTool | undefined;
  /** Most model steps that may call tools before the final reply (default 5). */
  maxToolSteps?: number | undefined;
  /** Put tool results into `data.tool_outputs`: all of them, or those whose tool name passes the filter. */
  carryToolOutputs?: boolean | ((toolName: string) => boolean) | undefined;
  /** Re-asks when the reply is unreadable or breaks `dataSchema` (default: the chain's, which defaults to 1). */
  maxReasks?: number | undefined;
}

/** What a function node receives besides its input. */
export interface FunctionNodeContext {
  nodeId: string;
  correlationId: string;
  step: number;
  /** The user's answer when the run resumed at this node after it asked for clarification. */
  answer?: unknown;
  /** Replies of nodes that have run so far. */
  outputs: Readonly<Record<string, SacpReply>>;
  signal?: AbortSignal | undefined;
}

/** A plain async function that returns a reply. */
export type NodeFunction = (input: unknown, context: FunctionNodeContext) => SacpReply | Promise<SacpReply>;

/** A chain node backed by code. */
export interface FunctionNode {
  kind?: 'function';
  run: NodeFunction;
  input?: InputTemplate | undefined;
}

/** Any node of a chain: an agent, a function node, or a bare function. */
export type ChainNode = AgentNode | FunctionNode | NodeFunction;

/** What running one node produced. */
export interface NodeOutcome {
  reply: SacpReply;
  ok: boolean;
  repairs: SacpRepair[];
  issues?: SacpIssue[] | undefined;
  reasks: number;
  toolOutputs: ToolOutput[];
}

/** When a node runs again after a pause: the reply that asked, and the user's answer. */
export interface ResumeContext {
  previousReply: SacpReply;
  answer: unknown;
}

/** True for a node that runs a model. */
export function isAgentNode(node: ChainNode): node is AgentNode {
  return typeof node === 'object' && node !== null && 'system' in node;
}

/** Runs an agent node: protocol prompt, model turn, tolerant parse, bounded re-asks, tool output carry. */
export async function runAgentNode(
  node: AgentNode,
  input: unknown,
  context: {
    nodeId: string;
    correlationId: string;
    maxReasks: number;
    runAgent?: RunAgentHook | undefined;
    resume?: ResumeContext | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<NodeOutcome> {
  const system = withSacpProtocol(node.system, { dataSchema: node.dataSchema });
  const runTurn = context.runAgent ?? runAgentTurnWithModel;
  let messages: ModelMessage[] = [
    { role: 'user', content: typeof input === 'string' ? input : JSON.stringify(input) },
  ];
  if (context.resume) {
    messages.push(
      { role: 'assistant', content: JSON.stringify(context.resume.previousReply) },
      { role: 'user', content: answerText(context.resume.answer) },
    );
  }
  const maxReasks = node.maxReasks ?? context.maxReasks;
  const toolOutputs: ToolOutput[] = [];
  const allRepairs: SacpRepair[] = [];
  let reasks = 0;
  for (;;) {
    const turn = await runTurn({
      nodeId: context.nodeId,
      model: node.model,
      system,
      messages,
      tools: node.tools,
      // A re-ask runs no tool (see RunAgentRequest.reask); a hook that would call through callTool anyway is refused here.
      callTool: reasks > 0 && node.callTool ? refuseInReask : node.callTool,
      maxToolSteps: node.maxToolSteps ?? 5,
      correlationId: context.correlationId,
      signal: context.signal,
      reask: reasks,
    });
    toolOutputs.push(...(turn.toolOutputs ?? []));
    const parsed = parseSacp(turn.text, { dataSchema: node.dataSchema });
    allRepairs.push(...parsed.repairs);
    if (parsed.ok || reasks >= maxReasks) {
      const reply =
        parsed.ok || parsed.fallback
          ? parsed.reply
          : schemaFailureReply(parsed.reply, parsed.issues ?? [], reasks);
      carryToolOutputs(reply, toolOutputs, node.carryToolOutputs);
      return {
        reply,
        ok: parsed.ok,
        repairs: unique(allRepairs),
        issues: parsed.issues,
        reasks,
        toolOutputs,
      };
    }
    reasks += 1;
    messages = [
      ...messages,
      ...(turn.responseMessages ?? [{ role: 'assistant', content: turn.text } satisfies ModelMessage]),
      { role: 'user', content: buildReaskInstruction(parsed.issues ?? []) },
    ];
  }
}

/** Runs a function node and checks that it returned a valid reply; a throw or an invalid value becomes a failure reply. */
export async function runFunctionNode(
  run: NodeFunction,
  input: unknown,
  context: FunctionNodeContext,
): Promise<NodeOutcome> {
  const value = await run(input, context);
  const checked = sacpReplySchema.safeParse(value);
  if (checked.success)
    return { reply: checked.data as SacpReply, ok: true, repairs: [], reasks: 0, toolOutputs: [] };
  const issues = checked.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  return {
    reply: {
      thought: '',
      status: 'failure',
      data: { issues: formatIssues(issues) },
      message: `Function node "${context.nodeId}" returned a value that is not a valid SACP reply.`,
    },
    ok: false,
    repairs: [],
    issues,
    reasks: 0,
    toolOutputs: [],
  };
}

function schemaFailureReply(reply: SacpReply, issues: SacpIssue[], reasks: number): SacpReply {
  const lines = formatIssues(issues);
  return {
    thought: reply.thought,
    status: 'failure',
    data: { rejected_data: reply.data, schema_issues: lines, original_status: reply.status },
    message: `The agent's reply data did not match its schema${reasks > 0 ? ` after ${reasks} re-ask${reasks > 1 ? 's' : ''}` : ''}: ${lines.slice(0, 3).join('; ')}`,
  };
}

function carryToolOutputs(
  reply: SacpReply,
  outputs: ToolOutput[],
  option: AgentNode['carryToolOutputs'],
): void {
  if (!option || outputs.length === 0 || 'tool_outputs' in reply.data) return;
  const kept = typeof option === 'function' ? outputs.filter((output) => option(output.tool_name)) : outputs;
  if (kept.length > 0) reply.data.tool_outputs = kept;
}

const refuseInReask: CallTool = async (name) => reaskCallRefusal(name);

function answerText(answer: unknown): string {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  return `The user answered your question: ${text}`;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
