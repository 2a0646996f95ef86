import { randomUUID } from 'node:crypto';
import { compileChain } from './chain/compile.js';
import { resumedState } from './chain/resume.js';
import { executeRun } from './chain/run.js';
import { initialState } from './chain/state.js';
import type { Chain, ChainDefinition } from './chain/types.js';

export type {
  Chain,
  ChainCheckpoint,
  ChainDefinition,
  ChainEdge,
  ChainRunOptions,
  ChainRunResult,
  ChainTraceEntry,
} from './chain/types.js';

/**
 * Defines a chain of agents and functions with conditional edges, input templates, guardrails and
 * audit. Validates the graph up front: throws `sacp_invalid_chain` / `sacp_invalid_condition`.
 */
export function defineChain(definition: ChainDefinition): Chain {
  // The steps of a run live in ./chain/: compile (checks), step (one node), routing (edges),
  // resume (pause and checkpoints), run (the loop).
  const chain = compileChain(definition);
  return {
    id: definition.id,
    async run(input, options = {}) {
      const state = initialState(input, definition.start, options.correlationId ?? randomUUID());
      return executeRun(chain, state, options);
    },
    async resume(checkpointOrToken, answer, options = {}) {
      return executeRun(chain, await resumedState(chain, checkpointOrToken, answer, options), options);
    },
  };
}
