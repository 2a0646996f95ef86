import { createHash, randomUUID } from 'node:crypto';
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
    pauseId: randomUUID(),
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
 * own state and is taken as it is. Throws `sacp_invalid_checkpoint` for another chain's checkpoint,
 * and `sacp_resume_used` when the pause was already claimed in the chain's resume ledger: the claim
 * is made here, before any node runs, so of two resumes of one pause exactly one gets a state.
 */
export async function resumedState(
  chain: CompiledChain,
  checkpointOrToken: ChainCheckpoint | string,
  answer: unknown,
  options: ChainRunOptions,
): Promise<RunState> {
  const checkpoint =
    typeof checkpointOrToken === 'object' && checkpointOrToken !== null
      ? checkpointOrToken
      : verifyCheckpoint(checkpointOrToken, chain.resumeKeys);
  const previousReply = pausedReply(chain, checkpoint);
  // An already aborted resume runs nothing (the run loop stops before the first step), so it leaves
  // the pause unclaimed and resumable.
  if (!options.signal?.aborted) await claimPause(chain, checkpoint);
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

/** Claims the pause in the chain's ledger; throws `sacp_resume_used` unless this is the first claim. */
async function claimPause(chain: CompiledChain, checkpoint: ChainCheckpoint): Promise<void> {
  const granted = await chain.resumeLedger.claim(pauseIdOf(checkpoint));
  // Only a literal `true` grants: a ledger answering anything else has not recorded a first claim.
  if (granted !== true) {
    throw new PatchbayError(
      'sacp_resume_used',
      `This paused run (chain "${checkpoint.chainId ?? '(unnamed)'}", node "${checkpoint.node}") was already resumed; a paused run resumes once. Nothing was run.`,
    );
  }
}

// A pause's own id is a UUID; anything else (a hand-made checkpoint) is named by its content instead,
// which also keeps the ledger's key short.
const pauseIdPattern = /^[A-Za-z0-9-]{1,64}$/;

// Checkpoints made before pauses had ids are named by their content, which holds the run's
// correlation id and its trace with start times, so two pauses do not share it.
function pauseIdOf(checkpoint: ChainCheckpoint): string {
  if (typeof checkpoint.pauseId === 'string' && pauseIdPattern.test(checkpoint.pauseId))
    return checkpoint.pauseId;
  return `sha256:${createHash('sha256').update(JSON.stringify(checkpoint)).digest('base64url')}`;
}
