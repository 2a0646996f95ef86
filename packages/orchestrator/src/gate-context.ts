import type { Credentials } from '@patchbay/connector';
import type { AuditSink, Proposal, ProposalStore, StatusSource } from '@patchbay/connector/ports';
import { type Envelope, failure } from '@patchbay/envelope';
import type { ConnectorOrigins } from '@patchbay/helpers';
import { secretCredentialValues } from '@patchbay/helpers';
import type { Logger } from 'pino';
import type { CallProgress } from './agent.js';
import type { Deadlines } from './deadlines.js';
import type { JsonSchemaValidator } from './json-schema-validator.js';
import type { ToolEntry, ToolRegistry } from './registry.js';
import type { RunGrant } from './run-agent.js';
import type { UsedApprovals } from './used-approvals.js';

/** Time limits of the gate, resolved from the options with their defaults. */
export interface GateLimits {
  /** Time limit of a tool call unless the tool sets `timeoutMs`. */
  defaultTimeoutMs: number;
  /** Time limit of one health probe. */
  healthTimeoutMs: number;
  /** Time limit of one agent's shutdown. */
  stopTimeoutMs: number;
  /** Time limit of one agent's start. */
  startTimeoutMs: number;
  /** Wait recorded for a rate-limited result that gives no `retry_after_s`. */
  defaultRetryAfterS: number;
  /** How long a pending proposal can be approved, from its creation. */
  proposalTtlMs: number;
  /** How long an approval authorises its call, from the decision. */
  approvalTtlMs: number;
}

/**
 * What the parts of the gate (lifecycle, call pipeline, proposals) share. `createOrchestrator`
 * builds one per orchestrator; the parts hold no other state between calls.
 */
export interface GateContext {
  readonly statusSource: StatusSource;
  readonly proposals: ProposalStore;
  readonly log: Logger;
  readonly now: () => Date;
  readonly registry: ToolRegistry;
  readonly validator: JsonSchemaValidator;
  /** Setup page of each connector, put into `connector_not_configured` envelopes. */
  readonly setupUrls: Record<string, string>;
  /** Names of each connector's secret credential fields; other fields (a site, an account SID) stay readable. */
  readonly secretFields: Record<string, readonly string[]>;
  /** Where each connector sends credentials: a connection verified against another origin is not used. */
  readonly origins: Record<string, ConnectorOrigins>;
  readonly limits: GateLimits;
  /** The time limits of running calls, on one timer. */
  readonly deadlines: Deadlines;
  /** Where refusals of tampered proposals are recorded; they are logged either way. */
  readonly audit: AuditSink | undefined;
  /** The key proposals are signed with (resolved on first use). Never logged. */
  readonly proposalKey: () => Uint8Array;
  /** Every key a stored proposal may verify with: the signing key, then keys of before a rotation. */
  readonly proposalKeys: () => readonly Uint8Array[];
  /** Approvals this gate used: a stored row carrying one again was restored behind the gate's back. */
  readonly usedApprovals: UsedApprovals;
}

/** One tool call on its way through the gate. */
export interface CallState {
  name: string;
  args: unknown;
  subject: string;
  correlationId: string;
  signal: AbortSignal | undefined;
  /** The caller's cap on the call's time limit, in ms (the tool's own limit applies when lower). */
  deadlineMs?: number | undefined;
  /** The caller's progress listener, handed to the agent. */
  onProgress?: ((progress: CallProgress) => void) | undefined;
  /** Set by `executeProposal`: the approval to consume instead of searching. */
  proposal?: Proposal | undefined;
  /**
   * Set by `approveAndExecute` for the proposal it has just checked and approved in this process:
   * its MACs verified, and the routed tool and the subject's status that allowed it. The pipeline
   * then neither loads status nor verifies the approval again, as long as the tool is still routed
   * to that same entry; anything else is checked as for any call.
   */
  checked?: CheckedApproval | undefined;
  /** Set by the approval step: the proposal this call consumed (now `executed`). */
  consumed?: Proposal | undefined;
}

/** What `approveAndExecute` checked moments before the run (see {@link CallState.checked}). */
export interface CheckedApproval {
  /** The registry entry the tool was routed to when the status allowed the call. */
  entry: ToolEntry;
  /** What the status step yielded then: the credentials and scopes of the call. */
  grant: RunGrant;
}

/** The empty secret list, shared so calls without credentials allocate nothing. */
export const noSecrets: readonly string[] = [];

/** Secret values of a connector's credentials: what no log line or envelope may contain. */
export function secretsFor(
  context: Pick<GateContext, 'secretFields'>,
  connectorId: string | undefined,
  credentials: Credentials | undefined,
): readonly string[] {
  if (!credentials) return noSecrets;
  return secretCredentialValues(
    credentials,
    connectorId === undefined ? undefined : context.secretFields[connectorId],
  );
}

/** The answer to a call its caller cancelled before it started (before routing, approval or the run). */
export function cancelledBeforeStart(): Envelope {
  // `cancelled`, not `timeout`: no deadline passed, the caller gave up, so nobody should retry it.
  return failure('cancelled', { userMessage: 'The request was cancelled before it started.' });
}

/** The message of anything thrown, for logs (redact it before logging). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves after `ms` with a value; the timer is cleared by the returned `cancel`. */
export function delay<T>(ms: number, value: T): { promise: Promise<T>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
