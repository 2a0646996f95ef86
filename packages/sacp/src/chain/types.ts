import type { PatchbayErrorCode } from '@patchbay/envelope';
import type { RunAgentHook } from '../agent-turn.js';
import type { SacpAuditSink } from '../audit-log.js';
import type { Guardrail } from '../guardrails.js';
import type { SacpIssue } from '../issues.js';
import type { ChainNode } from '../nodes.js';
import type { SacpRepair } from '../parse-sacp.js';
import type { SacpReply, SacpStatus } from '../reply.js';
import type { ResumeLedger } from '../resume-ledger.js';
import type { ResumeKey } from '../resume-token.js';

/** A directed edge; taken when its `status` filter and `when` expression both hold (edges are tried in order). */
export interface ChainEdge {
  from: string;
  to: string;
  /** Take the edge only for these statuses. */
  status?: SacpStatus | SacpStatus[] | undefined;
  /** filtrex expression over `status`, `data`, `message`, `thought`, `visits`, `step`, e.g. `data.score > 0.8`. */
  when?: string | undefined;
}

/** The definition of a chain (workflow) of agents and functions. */
export interface ChainDefinition {
  /** Name used in audits and checkpoints. */
  id?: string | undefined;
  nodes: Record<string, ChainNode>;
  edges?: ChainEdge[] | undefined;
  start: string;
  /** Most node runs in one run, resumes included (default 25); cycles end with a failure when they hit it. */
  maxSteps?: number | undefined;
  /** Default re-asks per agent node on an unreadable or schema-breaking reply (default 1). */
  maxReasks?: number | undefined;
  /** Checks run in order on every reply before it is passed on. */
  guardrails?: Guardrail[] | undefined;
  /** Receives one record per reply. */
  audit?: SacpAuditSink | undefined;
  /** Runs agent turns instead of calling the model directly (the orchestrator's turn runner plugs in here). */
  runAgent?: RunAgentHook | undefined;
  /**
   * Secret (at least 32 bytes) that signs and verifies resume tokens, so a token resumes in another
   * process or after a restart. Several keys: the first signs, any verifies (rotate by putting the
   * new key first). Without it the chain uses a random key of its own: its tokens resume only on the
   * same chain object.
   */
  resumeKey?: ResumeKey | readonly ResumeKey[] | undefined;
  /**
   * Records which paused runs were resumed, so each resumes at most once: a second `resume` of the
   * same pause (token or checkpoint) is refused with `sacp_resume_used` before any node runs. Default:
   * a ledger in memory, of this chain object alone. When several processes or several chain objects
   * (a chain defined per request) may resume one run, give them one ledger on a shared store.
   */
  resumeLedger?: ResumeLedger | undefined;
}

/** One node run in a chain's trace. */
export interface ChainTraceEntry {
  step: number;
  node: string;
  kind: 'agent' | 'function';
  startedAt: string;
  input: unknown;
  reply: SacpReply;
  ok: boolean;
  repairs: SacpRepair[];
  issues?: SacpIssue[] | undefined;
  reasks: number;
  /** Guardrails that changed the reply. */
  guardrails: string[];
  /** True when this run of the node followed a resume with the user's answer. */
  resumed?: boolean | undefined;
  /** The edge taken after this node; null when none matched (the run ended or paused here). */
  edge: { index: number; to: string; when?: string | undefined } | null;
  /** Conditions that failed at run time while choosing the edge. */
  conditionErrors?: string[] | undefined;
  /** Why the node failed, by code: a `PatchbayError`'s own or one of the `sacp_*` codes. */
  error?: { code: PatchbayErrorCode; message: string } | undefined;
}

/**
 * Everything needed to continue a paused run; JSON-serialisable. `resume` trusts a checkpoint object
 * as it is: keep it server-side, or hand out the signed `resumeToken` instead.
 */
export interface ChainCheckpoint {
  version: 1;
  chainId?: string | undefined;
  correlationId: string;
  input: unknown;
  node: string;
  /** The node that ran before the paused one. */
  previous?: string | undefined;
  /**
   * Random id of this pause, claimed in the chain's `resumeLedger` when the run resumes. Absent in
   * checkpoints made before resumes were single-use; those are claimed by a hash of their content.
   */
  pauseId?: string | undefined;
  question: string;
  steps: number;
  visits: Record<string, number>;
  outputs: Record<string, SacpReply>;
  trace: ChainTraceEntry[];
}

/** What every run result carries, whatever its state. */
export interface RunResultBase {
  correlationId: string;
  /** The last reply of the run. */
  reply: SacpReply;
  /** Latest reply of every node that ran. */
  outputs: Record<string, SacpReply>;
  trace: ChainTraceEntry[];
  steps: number;
}

/** How a run ended: done, failed (unhandled failure, step limit, template error), or paused for the user. */
export type ChainRunResult =
  | (RunResultBase & { state: 'done' })
  | (RunResultBase & { state: 'failed'; error: { code: PatchbayErrorCode; message: string } })
  | (RunResultBase & {
      state: 'paused';
      node: string;
      question: string;
      checkpoint: ChainCheckpoint;
      /** The checkpoint signed with the chain's resume key (readable, not encrypted; tamper-evident). */
      resumeToken: string;
    });

/** Per-run options. */
export interface ChainRunOptions {
  correlationId?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** A defined chain: `run` from the start node, `resume` a paused run with the user's answer. */
export interface Chain {
  readonly id: string | undefined;
  run(input: unknown, options?: ChainRunOptions): Promise<ChainRunResult>;
  resume(
    checkpoint: ChainCheckpoint | string,
    answer: unknown,
    options?: ChainRunOptions,
  ): Promise<ChainRunResult>;
}
