import type { PatchbayErrorCode } from '@patchbay/envelope';
import type { ResumeContext } from '../nodes.js';
import type { SacpReply } from '../reply.js';
import type { ChainRunResult, ChainTraceEntry, RunResultBase } from './types.js';

/** A run in progress; mutated step by step, and what a checkpoint is cut from. */
export interface RunState {
  correlationId: string;
  input: unknown;
  answer?: unknown;
  current: string;
  /** The node that ran before `current`, for the default input. */
  previous?: string | undefined;
  steps: number;
  visits: Record<string, number>;
  outputs: Record<string, SacpReply>;
  trace: ChainTraceEntry[];
  /** Set for the first step after a resume only. */
  resume?: ResumeContext | undefined;
}

/** The state of a new run at the start node. */
export function initialState(input: unknown, start: string, correlationId: string): RunState {
  return { correlationId, input, current: start, steps: 0, visits: {}, outputs: {}, trace: [] };
}

/** The failure reply that stands for an error of the chain itself (step limit, template, abort). */
export function errorReply(message: string, code: PatchbayErrorCode): SacpReply {
  return { thought: '', status: 'failure', data: { error_code: code }, message };
}

/** The fields every result shares, read from the state the run ended in. */
export function resultBase(state: RunState, reply: SacpReply): RunResultBase {
  return {
    correlationId: state.correlationId,
    reply,
    outputs: state.outputs,
    trace: state.trace,
    steps: state.steps,
  };
}

/** Ends the run as failed; the last reply is `reply`, or an error reply made from the code and message. */
export function failedResult(
  state: RunState,
  code: PatchbayErrorCode,
  message: string,
  reply?: SacpReply,
): ChainRunResult {
  const last = reply ?? errorReply(message, code);
  return { state: 'failed', error: { code, message }, ...resultBase(state, last) };
}
