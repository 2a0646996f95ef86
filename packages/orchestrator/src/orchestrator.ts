import { randomUUID } from 'node:crypto';
import type { Meter, Tracer } from '@opentelemetry/api';
import type { Connector } from '@patchbay/connector';
import type {
  AuditSink,
  Proposal,
  ProposalState,
  ProposalStore,
  StatusSource,
} from '@patchbay/connector/ports';
import type { Envelope } from '@patchbay/envelope';
import { PatchbayError } from '@patchbay/envelope';
import type { Logger } from 'pino';
import type { Agent, AgentFactory, AgentHealth, AgentTool, CallProgress } from './agent.js';
import {
  createAgentLifecycle,
  type OrchestratorHealth,
  type OrchestratorStopReport,
} from './agent-lifecycle.js';
import { type ApprovalPolicy, checkApprovalPolicy } from './approval-policy.js';
import { runCall } from './call-pipeline.js';
import { connectorAgent } from './connector-agent.js';
import { createDeadlines } from './deadlines.js';
import type { CallState, GateContext } from './gate-context.js';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';
import { JsonSchemaValidator } from './json-schema-validator.js';
import { createInstruments, orchestratorLogger } from './observability.js';
import { minimumProposalKeyLength, randomProposalKey } from './proposal-mac.js';
import { createProposalsApi } from './proposals-api.js';
import { type ToolConflict, ToolRegistry } from './registry.js';
import { createUsedApprovals } from './used-approvals.js';

export type { OrchestratorHealth, OrchestratorStopReport, ShutdownFailure } from './agent-lifecycle.js';
export type { ToolConflict } from './registry.js';

/** Settings of {@link createOrchestrator}. */
export interface OrchestratorOptions {
  /** Per-subject connections, admin policy and rate-limit state; written back when a call learns something. */
  statusSource: StatusSource;
  /** Connectors served as agents (`connector:<id>`). */
  connectors?: readonly Connector[];
  /**
   * Which calls need approval. Default `{ default: 'destructive' }`: destructive tools and untrusted
   * agents' tools. `{ default: 'writes' }` is seed 003's policy (every write to an external service);
   * `connectors` and `tools` override the mode per connector id and per tool name. Checked here:
   * an unknown mode throws `invalid_definition`.
   */
  approvals?: ApprovalPolicy;
  /**
   * The app's own setup page per connector id, put in envelopes' `setup_url` instead of the
   * connector's `setupUrl` (pass the same map to `connectorStatusWire`'s `setupUrls`).
   */
  setupUrls?: Readonly<Record<string, string>>;
  /** Where approval proposals live; in memory by default. */
  proposals?: ProposalStore;
  /**
   * Key of the MACs that bind each proposal (subject, tool, owning agent, arguments, creation time,
   * definition) and each approval, at least 16 bytes. Default: the proposal store's `macKey()` (the
   * SQLite store derives one from its secret key, so every process sharing the store agrees), else a
   * random key of this process — proposals made then verify only in this process and not after a
   * restart. Never stored beside the proposals.
   */
  proposalKey?: Uint8Array;
  /**
   * Keys proposals may still be signed with (after a secret-key rotation): accepted when verifying,
   * never used to sign. Default: the proposal store's `previousMacKeys()` (the store derives them
   * from `PATCHBAY_PREVIOUS_SECRET_KEYS`), so approvals pending during a rotation survive it.
   */
  previousProposalKeys?: readonly Uint8Array[];
  /** Where refusals of tampered proposals are recorded (they are logged either way). */
  audit?: AuditSink;
  /** How long a pending proposal can be approved, from its creation. Default 24 hours. */
  proposalTtlMs?: number;
  /**
   * How long an approval authorises its call, from the decision: after that the call needs a new
   * proposal. Default 15 minutes. (`approveAndExecute` runs the call at once.)
   */
  approvalTtlMs?: number;
  /** A pino logger; silent by default. The orchestrator writes through a `createRedactingLogger` child of it. */
  logger?: Logger;
  /** OpenTelemetry meter; the global provider's by default. */
  meter?: Meter;
  /** OpenTelemetry tracer; the global provider's by default. */
  tracer?: Tracer;
  /** Time limit of a tool call unless the tool sets `timeoutMs`. Default 30 s. */
  defaultTimeoutMs?: number;
  /** Time limit of one health probe. Default 1 s. */
  healthTimeoutMs?: number;
  /** Time limit of one agent's shutdown. Default 5 s. */
  stopTimeoutMs?: number;
  /**
   * Time limit of one agent's start. Default 30 s. An agent still starting then is reported down
   * and the others serve; if it finishes starting later it joins.
   */
  startTimeoutMs?: number;
  /** Wait recorded for a rate-limited result that gives no `retry_after_s`. Default 60 s. */
  defaultRetryAfterS?: number;
  /** Clock, for tests. */
  now?: () => Date;
}

/** Who a call is for and how it may be cancelled or traced. */
export interface ExecuteOptions {
  subject: string;
  /** Cancels the call; the agent sees it through its context signal. */
  signal?: AbortSignal;
  /** Carried through logs, spans, MCP `_meta` and the envelope; generated when absent. */
  correlationId?: string;
  /**
   * Caps the call's time limit, in ms: the call answers `timeout` after the lower of this and the
   * tool's own limit. An MCP gateway sets it below its hosts' request timeout, so they read our
   * envelope rather than their own timeout error.
   */
  deadlineMs?: number;
  /** Receives progress the agent reports while the call runs (an MCP server's progress notifications). */
  onProgress?: (progress: CallProgress) => void;
}

/** One gate for every tool call: routing, status, validation, approval, timeout, envelope. */
export interface Orchestrator {
  /** Adds an agent; throws a `PatchbayError` (`duplicate_tool`) naming both owners when a tool name is taken. */
  register(agent: Agent): void;
  /** Stops (when running) and removes an agent and its tools. */
  unregister(agentId: string): Promise<void>;
  /** Registers a factory creating agents of a kind from configuration. */
  registerFactory<Config>(kind: string, factory: AgentFactory<Config>): void;
  /** Creates an agent with the kind's factory and registers it. */
  create<Config>(kind: string, config: Config): Agent;
  /** Runs a tool call through every gate. Never throws: every outcome is an envelope. */
  execute(name: string, args: unknown, options: ExecuteOptions): Promise<Envelope>;
  /**
   * Approves a pending proposal, so the next identical call (within `approvalTtlMs`) runs. Refuses
   * with a `PatchbayError` when the call could not start now: `proposal_not_found`,
   * `proposal_not_pending`, `proposal_tampered`, `proposal_expired`, or the error type the call
   * would get (`tool_unavailable`, `rate_limited`, …); the proposal then stays pending (or is voided).
   */
  approve(id: string, decision?: { decidedBy?: string }): Promise<Proposal>;
  /**
   * Approves a pending proposal and runs it once: what `patchbay approve` does. Throws only
   * `proposal_not_found` / `proposal_not_pending`; every other outcome is an envelope. A call that
   * could not start leaves the proposal pending, approvable again.
   */
  approveAndExecute(
    id: string,
    decision?: { decidedBy?: string },
    options?: Omit<ExecuteOptions, 'subject'>,
  ): Promise<Envelope>;
  /** Rejects a pending or approved proposal with a reason. */
  reject(id: string, decision: { reason: string; decidedBy?: string }): Promise<Proposal>;
  /**
   * Runs an approved proposal (once). Never throws. A proposal whose MACs do not verify is refused
   * (`conflict`), voided and audited; one whose call could not start returns to pending.
   */
  executeProposal(id: string, options?: Omit<ExecuteOptions, 'subject'>): Promise<Envelope>;
  /** Lists proposals. */
  listProposals(filter?: { subject?: string; state?: ProposalState }): Promise<Proposal[]>;
  /** Starts every agent in parallel; an agent that fails is reported in health and the others serve. */
  start(): Promise<void>;
  /**
   * Shuts every agent down in parallel, each within the stop limit. Never throws: an agent whose
   * shutdown threw or timed out is logged and listed in the report (`agent_shutdown_failed`).
   */
  stop(): Promise<OrchestratorStopReport>;
  /** Starts one agent. */
  startAgent(agentId: string): Promise<AgentHealth>;
  /**
   * Stops one agent; its tools answer `tool_unavailable` until it starts again. Rejects with a
   * `PatchbayError` `agent_shutdown_failed` when its shutdown threw or timed out (it is stopped all the same).
   */
  stopAgent(agentId: string): Promise<void>;
  /** Health of all agents (or of one), each probe bounded by the health limit. */
  health(): Promise<OrchestratorHealth>;
  health(agentId: string): Promise<AgentHealth>;
  /** Every routable tool, in registration order. */
  listTools(): AgentTool[];
  /** A tool by name. */
  getTool(name: string): AgentTool | undefined;
  /** Registered agents. */
  listAgents(): Agent[];
  /**
   * Tool names more than one agent declares (MCP servers discover theirs on connect), each with
   * every declarer and the agent it is routed to — undefined when ambiguous: then no agent serves it
   * until a prefix tells them apart. Empty when names are unique, as they should be.
   */
  toolConflicts(): ToolConflict[];
  /** Id of the agent a tool is routed to (`connector:github`, an MCP server name, `function:<name>`). */
  ownerOf(name: string): string | undefined;
  /**
   * Whether a call of the tool waits for a person's approval, as the gate decides it (the approval
   * policy, the tool's effect and hints, its agent's trust); undefined for a tool no agent serves.
   * Lets a framework's own approval step ask the person before the call reaches the gate, which
   * still decides and records the proposal.
   */
  needsApproval(name: string): boolean | undefined;
}

/** The proposal key: the option, else the store's, else a random one for this process (with a warning for a store of its own). */
function resolveProposalKey(options: OrchestratorOptions, store: ProposalStore, log: Logger): Uint8Array {
  const key = options.proposalKey ?? store.macKey?.();
  if (key !== undefined) {
    if (key.length < minimumProposalKeyLength) {
      throw new PatchbayError(
        'invalid_proposal_key',
        `The proposal key must be at least ${minimumProposalKeyLength} bytes.`,
      );
    }
    return key;
  }
  if (options.proposals) {
    log.warn(
      'proposals are signed with a key of this process only: other processes, and this one after a restart, will refuse them (pass proposalKey, or a store with macKey())',
    );
  }
  return randomProposalKey();
}

/**
 * Creates an orchestrator. Connectors given in options are registered as agents at once. The
 * orchestrator is three parts over one shared context: the agent lifecycle (`agent-lifecycle.ts`),
 * the call pipeline (`call-pipeline.ts`: routing, status, validation, approval, run, write-back)
 * and the proposals a person decides (`proposals-api.ts`).
 */
export function createOrchestrator(options: OrchestratorOptions): Orchestrator {
  checkApprovalPolicy(options.approvals);
  const proposalStore = options.proposals ?? createInMemoryProposalStore();
  const orchestratorLog = orchestratorLogger(options.logger);
  const now = options.now ?? (() => new Date());
  const approvalTtlMs = options.approvalTtlMs ?? 15 * 60_000;
  let proposalKey: Uint8Array | undefined;
  let proposalKeys: readonly Uint8Array[] | undefined;
  const context: GateContext = {
    statusSource: options.statusSource,
    proposals: proposalStore,
    log: orchestratorLog,
    now,
    registry: new ToolRegistry(options.approvals),
    validator: new JsonSchemaValidator(),
    setupUrls: {},
    secretFields: {},
    origins: {},
    limits: {
      defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000,
      healthTimeoutMs: options.healthTimeoutMs ?? 1_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
      defaultRetryAfterS: options.defaultRetryAfterS ?? 60,
      proposalTtlMs: options.proposalTtlMs ?? 24 * 60 * 60_000,
      approvalTtlMs,
    },
    deadlines: createDeadlines(),
    audit: options.audit,
    proposalKey: () => {
      proposalKey ??= resolveProposalKey(options, proposalStore, orchestratorLog);
      return proposalKey;
    },
    proposalKeys: () => {
      proposalKeys ??= [
        context.proposalKey(),
        ...(options.previousProposalKeys ?? proposalStore.previousMacKeys?.() ?? []),
      ];
      return proposalKeys;
    },
    usedApprovals: createUsedApprovals(now, approvalTtlMs),
  };
  const instruments = createInstruments(options.meter, options.tracer);
  const run = (call: CallState) => runCall(context, instruments, call);
  const proposals = createProposalsApi(context, run, randomUUID);
  const lifecycle = createAgentLifecycle(context, (tool, currentHash) => {
    void proposals.expireProposalsOf(tool, currentHash);
  });
  const { registry } = context;

  const orchestrator: Orchestrator = {
    register: lifecycle.register,
    unregister: lifecycle.unregister,
    registerFactory: lifecycle.registerFactory,
    create: lifecycle.create,
    execute(name, args, executeOptions) {
      return run({
        name,
        args,
        subject: executeOptions.subject,
        signal: executeOptions.signal,
        correlationId: executeOptions.correlationId ?? randomUUID(),
        deadlineMs: executeOptions.deadlineMs,
        onProgress: executeOptions.onProgress,
      });
    },
    approve: proposals.approve,
    approveAndExecute: proposals.approveAndExecute,
    reject: proposals.reject,
    executeProposal: proposals.executeProposal,
    listProposals: proposals.listProposals,
    start: lifecycle.start,
    stop: lifecycle.stop,
    startAgent: lifecycle.startAgent,
    stopAgent: lifecycle.stopAgent,
    health: lifecycle.health as Orchestrator['health'],
    listTools() {
      return [...registry.tools.values()].map((entry) => entry.tool);
    },
    getTool(name) {
      return registry.lookup(name)?.tool;
    },
    listAgents() {
      return [...registry.agents.values()].map((record) => record.agent);
    },
    toolConflicts() {
      return registry.conflicts();
    },
    ownerOf(name) {
      return registry.lookup(name)?.record.agent.id;
    },
    needsApproval(name) {
      return registry.lookup(name)?.needsApproval;
    },
  };

  for (const connector of options.connectors ?? []) {
    context.setupUrls[connector.id] = options.setupUrls?.[connector.id] ?? connector.setupUrl;
    context.origins[connector.id] = {
      id: connector.id,
      origin: connector.origin,
      defaultOrigin: connector.defaultOrigin,
    };
    context.secretFields[connector.id] = connector.auth.fields
      .filter((field) => field.secret !== false)
      .map((field) => field.name);
    lifecycle.register(connectorAgent(connector));
  }
  return orchestrator;
}
