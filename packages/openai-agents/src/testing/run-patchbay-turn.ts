import { Agent, assistant, MaxTurnsExceededError, Runner, user } from '@openai/agents';
import type { FrameworkTurnOptions, FrameworkTurnRun } from '@patchbay/turn/testing';
import { aiSdkModel } from '../ai-sdk-model.js';
import { createPatchbayAgentTools } from '../patchbay-agent-tools.js';

/** What one user turn through the Agents SDK's loop did: the runner contract of `@patchbay/turn/testing`. */
export type PatchbayTurnRun = FrameworkTurnRun;

/** Options of {@link runPatchbayTurn}: the runner contract of `@patchbay/turn/testing`. */
export type RunPatchbayTurnOptions = FrameworkTurnOptions;

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
