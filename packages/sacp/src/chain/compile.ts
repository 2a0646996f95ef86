import { PatchbayError } from '@patchbay/envelope';
import { type CompiledCondition, compileCondition } from '../condition.js';
import { compileDataSchema } from '../data-schema.js';
import { agentNodeOptions, assertKnownOptions, edgeOptions, functionNodeOptions } from '../node-options.js';
import { type ChainNode, isAgentNode } from '../nodes.js';
import { type SacpStatus, sacpStatuses } from '../reply.js';
import { createMemoryResumeLedger, type ResumeLedger } from '../resume-ledger.js';
import { type ResumeKeyRing, resumeKeyRing } from '../resume-token.js';
import type { ChainDefinition, ChainEdge } from './types.js';

/** An edge ready to be tried: its position in the definition, its statuses as a set, its condition compiled. */
export interface CompiledEdge extends ChainEdge {
  index: number;
  statuses?: Set<SacpStatus> | undefined;
  condition?: CompiledCondition | undefined;
}

/** A definition checked once, with what every run of it needs worked out up front. */
export interface CompiledChain {
  definition: ChainDefinition;
  edges: CompiledEdge[];
  maxSteps: number;
  maxReasks: number;
  /** The first key signs resume tokens, any of them verifies. */
  resumeKeys: ResumeKeyRing;
  /** Where resumed pauses are claimed: the definition's, or one in memory for this chain alone. */
  resumeLedger: ResumeLedger;
}

const defaultMaxSteps = 25;
const defaultMaxReasks = 1;
const reservedNames = new Set(['input', 'answer']);

const invalid = (message: string) => new PatchbayError('sacp_invalid_chain', message);

/**
 * Checks a chain definition and compiles its edges, so a mistake fails `defineChain` rather than a
 * run. Throws `sacp_invalid_chain` (also for a `resumeLedger` without `claim`),
 * `sacp_invalid_condition`, `sacp_invalid_data_schema` or `sacp_invalid_resume_key`.
 */
export function compileChain(definition: ChainDefinition): CompiledChain {
  if (!Object.hasOwn(definition.nodes, definition.start))
    throw invalid(`Start node "${definition.start}" is not defined.`);
  for (const [id, node] of Object.entries(definition.nodes)) checkNode(id, node, definition);
  const maxSteps = definition.maxSteps ?? defaultMaxSteps;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw invalid('maxSteps must be a positive integer.');
  const edges = (definition.edges ?? []).map((edge, index) => compileEdge(edge, index, definition));
  return {
    definition,
    edges,
    maxSteps,
    maxReasks: definition.maxReasks ?? defaultMaxReasks,
    resumeKeys: resumeKeyRing(definition.resumeKey),
    resumeLedger: checkResumeLedger(definition.resumeLedger),
  };
}

function checkResumeLedger(ledger: ResumeLedger | undefined): ResumeLedger {
  if (ledger === undefined) return createMemoryResumeLedger();
  if (typeof ledger !== 'object' || ledger === null || typeof ledger.claim !== 'function') {
    throw invalid(
      'resumeLedger must be an object with a claim(pauseId) method (see createMemoryResumeLedger).',
    );
  }
  return ledger;
}

function checkNode(id: string, node: ChainNode, definition: ChainDefinition): void {
  if (reservedNames.has(id) || id.includes('.') || /\s/.test(id) || id === '') {
    throw invalid(
      `Node id "${id}" is not allowed: ids must not be "input" or "answer" and must not contain dots or spaces.`,
    );
  }
  if (isAgentNode(node) && !node.model && !definition.runAgent) {
    throw invalid(`Agent node "${id}" needs a model (or the chain a runAgent hook).`);
  }
  // Compiling now surfaces a broken data schema when the chain is defined, not mid-run.
  if (isAgentNode(node) && node.dataSchema) compileDataSchema(node.dataSchema);
  if (!isAgentNode(node) && typeof node !== 'function' && typeof node.run !== 'function') {
    throw invalid(
      `Node "${id}" must be an agent ({ model, system }), a function node ({ run }) or a function.`,
    );
  }
  if (typeof node !== 'function') {
    assertKnownOptions(node, isAgentNode(node) ? agentNodeOptions : functionNodeOptions, `Node "${id}"`);
  }
}

function compileEdge(edge: ChainEdge, index: number, definition: ChainDefinition): CompiledEdge {
  assertKnownOptions(edge, edgeOptions, `Edge ${index}`);
  for (const end of [edge.from, edge.to]) {
    if (!Object.hasOwn(definition.nodes, end))
      throw invalid(`Edge ${index} refers to unknown node "${end}".`);
  }
  const statuses =
    edge.status === undefined ? undefined : new Set(Array.isArray(edge.status) ? edge.status : [edge.status]);
  for (const status of statuses ?? []) {
    if (!(sacpStatuses as readonly string[]).includes(status))
      throw invalid(`Edge ${index} has unknown status "${status}".`);
  }
  return {
    ...edge,
    index,
    statuses,
    condition: edge.when === undefined ? undefined : compileCondition(edge.when),
  };
}
