import { Agent, assistant, MaxTurnsExceededError, Runner, user } from '@openai/agents';
import type { SessionOrchestrator, StepPlan, TurnCall, TurnSessionOptions } from '@patchbay/turn';
import { aiSdkModel } from '../ai-sdk-model.js';
import type { LanguageModelV4 } from '../language-model.js';
import { createPatchbayAgentTools } from '../patchbay-agent-tools.js';

/** What one user turn through the Agents SDK's own loop did, in the shape every Patchbay runner reports. */
export interface PatchbayTurnRun {
  /** The run's final text ('' when it stopped on a pending approval or ran out of turns). */
  reply: string;
  /** Every tool call of the turn and its envelope (the session's trace). */
  calls: readonly TurnCall[];
  /** Every plan the session prepared, in order: one per model call. */
  steps: StepPlan[];
  /** Approvals the framework paused on and nobody decided (approve option absent). */
  pendingApprovals: { toolName: string; input: unknown }[];
}

/** Options of {@link runPatchbayTurn}. */
export interface RunPatchbayTurnOptions {
  /** An AI SDK model (e.g. `createScriptedModel` from `@patchbay/turn/testing`), driven through {@link aiSdkModel}. */
  model: LanguageModelV4;
  /** The user's message. */
  message: string;
  /** Whose connectors. */
  subject: string;
  /** The gate every call goes through. */
  orchestrator: SessionOrchestrator;
  /** Installed connectors. */
  connectors: TurnSessionOptions['connectors'];
  /** Where the subject's connections are read from, fresh before every model call. */
  statusSource: TurnSessionOptions['statusSource'];
  /** The deployment's status-block settings. */
  statusBlock?: TurnSessionOptions['statusBlock'];
  /** Who the agent is: first section of the system prompt. */
  identity?: string;
  /** A complete static system prompt instead of the one built from `identity`. */
  systemPrompt?: string;
  /** Clock of the status captures (a scenario's time). */
  now?: () => Date;
  /** Earlier messages of the conversation, as text. */
  history?: readonly { role: 'user' | 'assistant'; content: string }[];
  /** The person: called at the framework's approval step; true approves, false rejects. Absent: the run stops pending. */
  approve?: (request: { toolName: string; input: unknown }) => boolean | Promise<boolean>;
  /** Most model calls of the turn (the run's `maxTurns`): default 8. */
  maxSteps?: number;
}

/**
 * Runs one user turn through `@openai/agents`' own loop (`Runner.run`) with Patchbay wired in: the
 * model is the given AI SDK model behind {@link aiSdkModel}; an approval pauses the run as an
 * interruption, `approve` decides it through `state.approve` / `state.reject`, and the run resumes
 * from its state. The uniform runner of the eval matrix.
 */
export async function runPatchbayTurn(options: RunPatchbayTurnOptions): Promise<PatchbayTurnRun> {
  const patchbay = await createPatchbayAgentTools({
    subject: options.subject,
    orchestrator: options.orchestrator,
    connectors: options.connectors,
    statusSource: options.statusSource,
    userText: options.message,
    ...(options.statusBlock ? { statusBlock: options.statusBlock } : {}),
    ...(options.identity !== undefined ? { identity: options.identity } : {}),
    ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const input = [
    ...(options.history ?? []).map((message) =>
      message.role === 'user' ? user(message.content) : assistant(message.content),
    ),
    user(options.message),
  ];
  const agent = new Agent({
    name: 'patchbay',
    instructions: patchbay.instructions,
    tools: patchbay.tools,
    model: patchbay.traceModel(aiSdkModel(options.model)),
  });
  // No trace leaves the process: the eval runs offline.
  const runner = new Runner({ tracingDisabled: true });
  const runOptions = { maxTurns: options.maxSteps ?? 8, ...patchbay.runOptions };
  const pendingApprovals: PatchbayTurnRun['pendingApprovals'] = [];
  let reply = '';
  try {
    let result = await runner.run(agent, input, runOptions);
    while ((result.interruptions?.length ?? 0) > 0) {
      const requests = result.interruptions!.map((item) => ({
        item,
        request: { toolName: item.name ?? '', input: parseArguments(item.arguments) },
      }));
      if (!options.approve) {
        pendingApprovals.push(...requests.map(({ request }) => request));
        break;
      }
      for (const { item, request } of requests) {
        if (await options.approve(request)) result.state.approve(item);
        else result.state.reject(item);
      }
      result = await runner.run(agent, result.state, runOptions);
    }
    if (pendingApprovals.length === 0 && typeof result.finalOutput === 'string') reply = result.finalOutput;
  } catch (error) {
    // Out of turns: the turn ends without a reply, as runTurn's step limit does; the trace stays.
    if (!(error instanceof MaxTurnsExceededError)) throw error;
  }
  return { reply, calls: patchbay.session.calls, steps: [...patchbay.steps], pendingApprovals };
}

function parseArguments(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
