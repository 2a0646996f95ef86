import { PatchbayError } from '@patchbay/envelope';
import type { SacpReply } from '../reply.js';
import { signCheckpoint, verifyCheckpoint } from '../resume-token.js';
import type { CompiledChain } from './compile.js';
import { type RunState, resultBase } from './state.js';
import type { ChainCheckpoint, ChainRunOptions, ChainRunResult } from './types.js';

/** Ends the run paused on `nodeId`'s question, with a checkpoint of the state and its signed token. */
export function pausedResult(
  chain: CompiledChain,
  state: RunState,
  nodeId: string,
  reply: SacpReply,
): ChainRunResult {
  const checkpoint: ChainCheckpoint = {
    version: 1,
    chainId: chain.definition.id,
    correlationId: state.correlationId,
    input: state.input,
    node: nodeId,
    previous: state.previous,
    question: reply.message,
    steps: state.steps,
    visits: { ...state.visits },
    outputs: { ...state.outputs },
    trace: [...state.trace],
  };
  return {
    state: 'paused',
    node: nodeId,
    question: reply.message,
    checkpoint,
    resumeToken: signCheckpoint(checkpoint, chain.resumeKeys),
    ...resultBase(state, reply),
  };
}

/**
 * The state that continues a paused run: the asking node runs again with the answer. A token must
 * verify against the chain's keys (`sacp_invalid_resume_token`); a checkpoint object is the caller's
 * own state and is taken as it is. Throws `sacp_invalid_checkpoint` for another chain's checkpoint.
 */
export function resumedState(
  chain: CompiledChain,
  checkpointOrToken: ChainCheckpoint | string,
  answer: unknown,
  options: ChainRunOptions,
): RunState {
  const checkpoint =
    typeof checkpointOrToken === 'object' && checkpointOrToken !== null
      ? checkpointOrToken
      : verifyCheckpoint(checkpointOrToken, chain.resumeKeys);
  const previousReply = pausedReply(chain, checkpoint);
  return {
    correlationId: options.correlationId ?? checkpoint.correlationId,
    input: checkpoint.input,
    answer,
    current: checkpoint.node,
    previous: checkpoint.previous,
    steps: checkpoint.steps,
    visits: { ...checkpoint.visits },
    outputs: { ...checkpoint.outputs },
    trace: [...checkpoint.trace],
    resume: { previousReply, answer },
  };
}

/** The reply that paused the run, once the checkpoint is shown to belong to this chain. */
function pausedReply(chain: CompiledChain, checkpoint: ChainCheckpoint): SacpReply {
  const { definition } = chain;
  if (checkpoint.version !== 1 || !Object.hasOwn(definition.nodes, checkpoint.node)) {
    throw new PatchbayError('sacp_invalid_checkpoint', 'The checkpoint does not belong to this chain.');
  }
  if (checkpoint.chainId !== definition.id) {
    throw new PatchbayError(
      'sacp_invalid_checkpoint',
      `The checkpoint belongs to chain "${checkpoint.chainId ?? '(unnamed)'}", not "${definition.id ?? '(unnamed)'}".`,
    );
  }
  const previousReply = checkpoint.outputs[checkpoint.node];
  if (!previousReply)
    throw new PatchbayError('sacp_invalid_checkpoint', 'The checkpoint has no reply for its paused node.');
  return previousReply;
}
