import type { SacpReply } from '../reply.js';
import type { CompiledChain } from './compile.js';
import { pausedResult } from './resume.js';
import { chooseEdge } from './routing.js';
import { failedResult, type RunState, resultBase } from './state.js';
import { runStep } from './step.js';
import type { ChainRunOptions, ChainRunResult } from './types.js';

/**
 * Runs node after node from `state.current` until the run ends: a reply that asks the user pauses
 * it, a reply no edge takes ends it (failed when the reply is a failure), and an abort or the step
 * limit stops it before the next node starts.
 */
export async function executeRun(
  chain: CompiledChain,
  state: RunState,
  options: ChainRunOptions,
): Promise<ChainRunResult> {
  for (;;) {
    const stopped = stopBeforeStep(chain, state, options.signal);
    if (stopped) return stopped;
    const ran = await runStep(chain, state, options.signal);
    if (ran.ended) return ran.result;
    const { nodeId, reply, entry } = ran;
    if (reply.status === 'clarification_needed') return pausedResult(chain, state, nodeId, reply);
    const route = chooseEdge(chain.edges, nodeId, reply, {
      visits: state.visits[nodeId] ?? 0,
      step: entry.step,
    });
    if (route.conditionErrors.length > 0) entry.conditionErrors = route.conditionErrors;
    if (!route.edge) return endedWithoutEdge(state, nodeId, reply);
    const { index, to, when } = route.edge;
    entry.edge = { index, to, ...(when ? { when } : {}) };
    state.previous = nodeId;
    state.current = to;
  }
}

function stopBeforeStep(
  chain: CompiledChain,
  state: RunState,
  signal: AbortSignal | undefined,
): ChainRunResult | undefined {
  if (signal?.aborted) return failedResult(state, 'sacp_aborted', 'The run was aborted.');
  if (state.steps >= chain.maxSteps) {
    return failedResult(
      state,
      'sacp_step_limit',
      `The chain stopped after reaching its step limit (maxSteps = ${chain.maxSteps}).`,
    );
  }
  return undefined;
}

// A failure that no edge handles fails the run; any other reply without an edge is the run's answer.
function endedWithoutEdge(state: RunState, nodeId: string, reply: SacpReply): ChainRunResult {
  if (reply.status === 'failure') {
    return failedResult(
      state,
      'sacp_unhandled_failure',
      `Node "${nodeId}" failed and no edge handles its failure: ${reply.message}`,
      reply,
    );
  }
  return { state: 'done', ...resultBase(state, reply) };
}
