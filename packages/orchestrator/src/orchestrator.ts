import { randomBytes, randomUUID } from 'node:crypto';
import { type Meter, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type {
  Connector,
  Credentials,
  Proposal,
  ProposalState,
  ProposalStore,
  StatusSource,
  SubjectState,
} from '@patchbay/connector';
import { secretCredentialValues, toolAvailability } from '@patchbay/connector';
import { type Envelope, failure, PatchbayError, redactString, toEnvelope } from '@patchbay/envelope';
import type { Logger } from 'pino';
import type { Agent, AgentFactory, AgentHealth, AgentTool } from './agent.js';
import { argsHash } from './args-hash.js';
import { connectorAgent } from './connector-agent.js';
import { createInMemoryProposalStore } from './in-memory-proposal-store.js';
import { JsonSchemaValidator } from './json-schema-validator.js';
import { createInstruments, orchestratorLogger } from './observability.js';
import { type AgentRecord, type IndexChanges, type ToolEntry, ToolRegistry } from './registry.js';
import { buildStatusSnapshot } from './status-snapshot.js';

/** Settings of {@link createOrchestrator}. */
export interface OrchestratorOptions {
  /** Per-subject connections, admin policy and rate-limit state; written back when a call learns something. */
  statusSource: StatusSource;
  /** Connectors served as agents (`connector:<id>`). */
  connectors?: readonly Connector[];
  /** Where approval proposals live; in memory by default. */
  proposals?: ProposalStore;
  /** A pino logger; silent by default. Secret paths are redacted on a child of it. */
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
}

/** Health of every agent and a summary. */
export interface OrchestratorHealth {
  /** `up` when every agent is up, `down` when none is, `degraded` otherwise. */
  status: 'up' | 'degraded' | 'down';
  agents: Record<string, AgentHealth>;
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
  /** Approves a pending proposal. */
  approve(id: string, decision?: { decidedBy?: string }): Promise<Proposal>;
  /** Rejects a pending or approved proposal with a reason. */
  reject(id: string, decision: { reason: string; decidedBy?: string }): Promise<Proposal>;
  /** Runs an approved proposal (once). Never throws. */
  executeProposal(id: string, options?: Omit<ExecuteOptions, 'subject'>): Promise<Envelope>;
  /** Lists proposals. */
  listProposals(filter?: { subject?: string; state?: ProposalState }): Promise<Proposal[]>;
  /** Starts every agent in parallel; an agent that fails is reported in health and the others serve. */
  start(): Promise<void>;
  /** Shuts every agent down in parallel, each within the stop limit. */
  stop(): Promise<void>;
  /** Starts one agent. */
  startAgent(agentId: string): Promise<AgentHealth>;
  /** Stops one agent; its tools answer `tool_unavailable` until it starts again. */
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
}

interface CallState {
  name: string;
  args: unknown;
  subject: string;
  correlationId: string;
  signal: AbortSignal | undefined;
  /** Set by `executeProposal`: the approval to consume instead of searching. */
  proposal?: Proposal | undefined;
}

const noSecrets: readonly string[] = [];

/** Outcomes that are part of the normal conversation (ask the user, fix arguments, wait for a person): logged at info. */
const expectedOutcomes: ReadonlySet<string> = new Set([
  'needs_input',
  'invalid_arguments',
  'approval_required',
]);

function secretsOf(
  credentials: Credentials | undefined,
  secretFields?: readonly string[],
): readonly string[] {
  return credentials ? secretCredentialValues(credentials, secretFields) : noSecrets;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves after `ms` with a value; the timer is cleared by the returned `cancel`. */
function delay<T>(ms: number, value: T): { promise: Promise<T>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Creates an orchestrator. Connectors given in options are registered as agents at once. */
export function createOrchestrator(options: OrchestratorOptions): Orchestrator {
  const statusSource = options.statusSource;
  const store = options.proposals ?? createInMemoryProposalStore();
  const log = orchestratorLogger(options.logger);
  const instruments = createInstruments(options.meter, options.tracer);
  const now = options.now ?? (() => new Date());
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const healthTimeoutMs = options.healthTimeoutMs ?? 1_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 5_000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const defaultRetryAfterS = options.defaultRetryAfterS ?? 60;
  const registry = new ToolRegistry();
  const validator = new JsonSchemaValidator();
  const factories = new Map<string, AgentFactory<never>>();
  const setupUrls: Record<string, string> = {};
  /** Names of each connector's secret credential fields; other fields (a site, an account SID) stay readable. */
  const secretFields: Record<string, readonly string[]> = {};
  const secretsFor = (connectorId: string | undefined, credentials: Credentials | undefined) =>
    secretsOf(credentials, connectorId === undefined ? undefined : secretFields[connectorId]);
  let running = false;

  function report(record: AgentRecord, changes: IndexChanges): void {
    const agentId = record.agent.id;
    if (changes.added.length || changes.removed.length) {
      log.info({ agent: agentId, added: changes.added, removed: changes.removed }, 'agent tools changed');
    }
    for (const conflict of changes.conflicts) {
      log.warn(
        { agent: agentId, tool: conflict.name, owner: conflict.owner },
        `tool "${conflict.name}" of agent "${agentId}" ignored: agent "${conflict.owner}" already serves it`,
      );
    }
    for (const change of changes.changed) {
      validator.forget(`${change.name}\u0000`);
      log.warn(
        {
          agent: agentId,
          tool: change.name,
          previous_hash: change.from,
          definition_hash: change.to,
          needs_approval: change.needsApproval,
        },
        change.needsApproval
          ? `definition of tool "${change.name}" changed: earlier approvals are void, new calls need approval again`
          : `definition of tool "${change.name}" changed`,
      );
      if (change.needsApproval) void expireProposalsOf(change.name, change.to);
    }
  }

  /** Voids open proposals made against an older definition, so listings show it at once. */
  async function expireProposalsOf(tool: string, currentHash: string): Promise<void> {
    try {
      for (const state of ['pending', 'approved'] as const) {
        for (const proposal of await store.list({ state })) {
          if (proposal.tool === tool && proposal.definitionHash !== currentHash) {
            await store.transition(proposal.id, state, 'expired', { at: now().toISOString() });
          }
        }
      }
    } catch (error) {
      log.error(
        { tool, error: redactString(errorMessage(error)) },
        'could not expire proposals of a changed tool',
      );
    }
  }

  function reindex(record: AgentRecord): void {
    try {
      report(record, registry.reindex(record));
    } catch (error) {
      log.error(
        { agent: record.agent.id, error: redactString(errorMessage(error)) },
        'could not read agent manifest',
      );
    }
  }

  function register(agent: Agent): void {
    const record = registry.add(agent);
    record.unsubscribe = agent.onToolsChanged?.(() => reindex(record));
    log.info({ agent: agent.id, tools: [...record.toolNames] }, 'agent registered');
    if (running) void startRecord(record);
  }

  async function startRecord(record: AgentRecord): Promise<void> {
    if (record.state === 'up') return;
    if (record.starting) return record.starting;
    record.state = 'starting';
    record.detail = undefined;
    const agentId = record.agent.id;
    record.starting = (async () => {
      try {
        const initializing = Promise.resolve().then(() => record.agent.initialize());
        const limit = delay(startTimeoutMs, 'timed_out' as const);
        const outcome = await Promise.race([initializing.then(() => 'up' as const), limit.promise]);
        limit.cancel();
        if (outcome === 'timed_out') {
          record.state = 'down';
          record.detail = `did not start within ${startTimeoutMs} ms`;
          log.error({ agent: agentId, error: record.detail }, 'agent failed to start');
          // A late start still counts, unless the agent was stopped or restarted meanwhile.
          initializing.then(
            () => {
              if (record.state !== 'down' || record.starting) return;
              record.state = 'up';
              record.detail = undefined;
              reindex(record);
              log.info({ agent: agentId }, 'agent started late');
            },
            () => undefined,
          );
          return;
        }
        record.state = 'up';
        // Tools of remote agents are only known once connected.
        reindex(record);
        log.info({ agent: agentId }, 'agent started');
      } catch (error) {
        record.state = 'down';
        record.detail = redactString(`failed to start: ${errorMessage(error)}`);
        log.error({ agent: agentId, error: record.detail }, 'agent failed to start');
      } finally {
        record.starting = undefined;
      }
    })();
    return record.starting;
  }

  async function stopRecord(record: AgentRecord): Promise<void> {
    if (record.starting) await record.starting;
    if (record.state === 'stopped') return;
    record.state = 'stopped';
    const agentId = record.agent.id;
    const limit = delay(stopTimeoutMs, 'timed_out' as const);
    try {
      const outcome = await Promise.race([
        record.agent.shutdown().then(() => 'stopped' as const),
        limit.promise,
      ]);
      if (outcome === 'timed_out')
        log.warn({ agent: agentId }, `agent did not shut down within ${stopTimeoutMs} ms`);
      else log.info({ agent: agentId }, 'agent stopped');
    } catch (error) {
      log.error({ agent: agentId, error: redactString(errorMessage(error)) }, 'agent shutdown failed');
    } finally {
      limit.cancel();
    }
  }

  function recordOf(agentId: string): AgentRecord {
    const record = registry.agents.get(agentId);
    if (!record) throw new PatchbayError('agent_not_found', `no agent with id "${agentId}" is registered`);
    return record;
  }

  async function probe(record: AgentRecord): Promise<AgentHealth> {
    if (record.state !== 'up') {
      return record.detail !== undefined
        ? { status: record.state, detail: record.detail }
        : { status: record.state };
    }
    const started = performance.now();
    const limit = delay<AgentHealth>(healthTimeoutMs, { status: 'down', detail: 'health probe timed out' });
    try {
      const health = await Promise.race([
        Promise.resolve()
          .then(() => record.agent.health())
          .catch((): AgentHealth => ({ status: 'down', detail: 'health probe failed' })),
        limit.promise,
      ]);
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      const result: AgentHealth = { status: health.status, latencyMs };
      if (health.detail !== undefined) result.detail = redactString(health.detail);
      return result;
    } finally {
      limit.cancel();
    }
  }

  async function health(agentId?: string): Promise<AgentHealth | OrchestratorHealth> {
    if (agentId !== undefined) return probe(recordOf(agentId));
    const records = [...registry.agents.values()];
    const results = await Promise.all(records.map((record) => probe(record)));
    const agents: Record<string, AgentHealth> = {};
    records.forEach((record, index) => {
      agents[record.agent.id] = results[index]!;
    });
    const upCount = results.filter((result) => result.status === 'up').length;
    const status = upCount === results.length ? 'up' : upCount === 0 ? 'down' : 'degraded';
    log.debug({ status, agents: results.length }, 'health checked');
    return { status, agents };
  }

  // ---- the call pipeline -------------------------------------------------------------------

  async function loadSubject(subject: string): Promise<SubjectState> {
    return statusSource.load(subject);
  }

  /** Gates a tool on connector status, scopes and `requires`; returns credentials when it may run. */
  async function statusGate(
    entry: ToolEntry,
    subject: string,
  ): Promise<
    { ok: true; credentials?: Credentials; scopes?: readonly string[] } | { ok: false; envelope: Envelope }
  > {
    const { tool } = entry;
    if (tool.connectorId === undefined && tool.requires.length === 0) return { ok: true };
    const state = await loadSubject(subject);
    const ids = new Set(tool.requires);
    if (tool.connectorId !== undefined) ids.add(tool.connectorId);
    const at = now();
    const snapshot = buildStatusSnapshot(subject, state, ids, at);
    const availability = toolAvailability(tool, snapshot, { setupUrls, now: at });
    if (!availability.available) return { ok: false, envelope: availability.envelope };
    if (tool.connectorId === undefined) return { ok: true };
    const connection = state.connections.find((candidate) => candidate.connectorId === tool.connectorId);
    return {
      ok: true,
      credentials: connection?.credentials ?? {},
      scopes: snapshot.connectors[tool.connectorId]?.scopes ?? [],
    };
  }

  function validate(
    entry: ToolEntry,
    args: unknown,
  ): { ok: true; value: unknown } | { ok: false; envelope: Envelope } {
    const { agent } = entry.record;
    if (agent.validate) return agent.validate(entry.tool.name, args);
    return validator.validate(entry.validationKey, entry.tool.inputJsonSchema, args, {
      tool: entry.tool.name,
      connector: entry.tool.connectorId,
    });
  }

  async function newProposal(call: CallState, entry: ToolEntry, hash: string): Promise<Envelope> {
    const proposal: Proposal = {
      id: `prop_${randomBytes(16).toString('base64url')}`,
      subject: call.subject,
      tool: call.name,
      args: call.args,
      argsHash: hash,
      createdAt: now().toISOString(),
      state: 'pending',
      correlationId: call.correlationId,
      definitionHash: entry.definitionHash,
    };
    await store.create(proposal);
    log.info(
      { correlation_id: call.correlationId, tool: call.name, proposal_id: proposal.id, args_hash: hash },
      'approval required: proposal created',
    );
    return failure('approval_required', {
      proposalId: proposal.id,
      connector: entry.tool.connectorId,
      userMessage: `Running ${call.name} needs approval from a person first (proposal ${proposal.id}).`,
    });
  }

  /** The approval gate. Returns undefined when the call may run (its approval consumed), else the envelope. */
  async function approvalGate(call: CallState, entry: ToolEntry): Promise<Envelope | undefined> {
    const hash = argsHash(call.args);
    const at = () => now().toISOString();
    if (call.proposal) {
      const proposal = call.proposal;
      if (argsHash(proposal.args) !== proposal.argsHash || proposal.tool !== call.name) {
        log.warn(
          { correlation_id: call.correlationId, proposal_id: proposal.id },
          'proposal arguments do not match their hash',
        );
        return failure('conflict', {
          userMessage: 'The stored proposal does not match what was approved; it needs a new proposal.',
        });
      }
      if (proposal.definitionHash !== undefined && proposal.definitionHash !== entry.definitionHash) {
        await store.transition(proposal.id, 'approved', 'expired', { at: at() });
        return newProposal(call, entry, hash);
      }
      const consumed = await store.transition(proposal.id, 'approved', 'executed', { at: at() });
      if (!consumed)
        return failure('conflict', {
          userMessage: 'This proposal was already used or is no longer approved.',
        });
      return undefined;
    }
    const candidates = (await store.list({ subject: call.subject })).filter(
      (proposal) => proposal.tool === call.name && proposal.argsHash === hash,
    );
    const current = (proposal: Proposal) =>
      proposal.definitionHash === undefined || proposal.definitionHash === entry.definitionHash;
    for (const proposal of candidates) {
      if ((proposal.state === 'approved' || proposal.state === 'pending') && !current(proposal)) {
        await store.transition(proposal.id, proposal.state, 'expired', { at: at() });
      }
    }
    for (const approved of candidates.filter(
      (proposal) => proposal.state === 'approved' && current(proposal),
    )) {
      // Compare-and-set: of two concurrent executions only one moves it to executed.
      if (await store.transition(approved.id, 'approved', 'executed', { at: at() })) {
        log.info(
          { correlation_id: call.correlationId, tool: call.name, proposal_id: approved.id },
          'running approved proposal',
        );
        return undefined;
      }
    }
    const pending = candidates.find((proposal) => proposal.state === 'pending' && current(proposal));
    if (pending) {
      return failure('approval_required', {
        proposalId: pending.id,
        connector: entry.tool.connectorId,
        userMessage: `Running ${call.name} is still waiting for approval (proposal ${pending.id}).`,
      });
    }
    for (const rejected of candidates.filter((proposal) => proposal.state === 'rejected')) {
      // A rejection answers once; a later identical call makes a new proposal.
      if (await store.transition(rejected.id, 'rejected', 'expired', { at: at() })) {
        const reason = rejected.reason ? ` Reason: ${redactString(rejected.reason)}` : '';
        return failure('approval_denied', {
          connector: entry.tool.connectorId,
          userMessage: `A person declined running ${call.name} with these arguments.${reason}`,
        });
      }
    }
    return newProposal(call, entry, hash);
  }

  /** Runs the agent under the deadline and the caller's signal; a hung call is abandoned. */
  async function runAgent(
    call: CallState,
    entry: ToolEntry,
    value: unknown,
    credentials: Credentials | undefined,
    scopes: readonly string[] | undefined,
  ): Promise<Envelope> {
    const timeoutMs = entry.tool.timeoutMs ?? defaultTimeoutMs;
    const controller = new AbortController();
    // One controller for timeout and caller cancel (AbortSignal.any costs more per call than a listener).
    const { signal } = controller;
    const secrets = secretsFor(entry.tool.connectorId, credentials);
    const envelopeContext = {
      connector: entry.tool.connectorId,
      tool: call.name,
      secrets,
      correlationId: call.correlationId,
      setupUrl: entry.tool.connectorId !== undefined ? setupUrls[entry.tool.connectorId] : undefined,
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onCallerAbort: (() => void) | undefined;
    const stopped = new Promise<Envelope>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new DOMException(`${call.name} exceeded ${timeoutMs} ms`, 'TimeoutError'));
        log.warn(
          { correlation_id: call.correlationId, tool: call.name, timeout_ms: timeoutMs },
          'tool call timed out',
        );
        resolve(
          failure('timeout', {
            connector: entry.tool.connectorId,
            userMessage: `${call.name} did not finish within ${timeoutMs} ms and was stopped.`,
          }),
        );
      }, timeoutMs);
      if (call.signal) {
        onCallerAbort = () => {
          controller.abort(call.signal?.reason);
          resolve(
            failure('timeout', {
              connector: entry.tool.connectorId,
              userMessage: 'The request was cancelled before it finished.',
            }),
          );
        };
        if (call.signal.aborted) onCallerAbort();
        else call.signal.addEventListener('abort', onCallerAbort, { once: true });
      }
    });
    const running = Promise.resolve()
      .then(() =>
        entry.record.agent.execute(call.name, value, {
          subject: call.subject,
          signal,
          correlationId: call.correlationId,
          credentials,
          scopes,
        }),
      )
      .then(
        (result) => toEnvelope(result, envelopeContext),
        (error: unknown) => {
          log.error(
            {
              correlation_id: call.correlationId,
              tool: call.name,
              error: redactString(errorMessage(error), secrets),
            },
            'agent threw',
          );
          return toEnvelope(error, envelopeContext);
        },
      );
    try {
      return await Promise.race([running, stopped]);
    } finally {
      clearTimeout(timer);
      if (onCallerAbort) call.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Records what a result says about the connector, so the next turn's status shows it. */
  async function writeBack(call: CallState, entry: ToolEntry, envelope: Envelope): Promise<void> {
    if (envelope.ok) return;
    const connectorId = entry.tool.connectorId ?? envelope.connector;
    if (connectorId === undefined) return;
    try {
      if (envelope.error_type === 'rate_limited') {
        const seconds = envelope.retry_after_s ?? defaultRetryAfterS;
        const until = new Date(now().getTime() + seconds * 1000).toISOString();
        await statusSource.markRateLimited(call.subject, connectorId, until);
        log.info(
          { correlation_id: call.correlationId, connector: connectorId, until },
          'connector marked rate limited',
        );
      } else if (envelope.error_type === 'invalid_credentials') {
        await statusSource.markInvalidCredentials(call.subject, connectorId, envelope.user_message);
        log.info(
          { correlation_id: call.correlationId, connector: connectorId },
          'connector credentials marked invalid',
        );
      }
    } catch (error) {
      log.error(
        {
          correlation_id: call.correlationId,
          connector: connectorId,
          error: redactString(errorMessage(error)),
        },
        'status write-back failed',
      );
    }
  }

  async function pipeline(
    call: CallState,
  ): Promise<{ envelope: Envelope; entry?: ToolEntry; secrets: readonly string[] }> {
    const entry = registry.lookup(call.name);
    if (!entry) {
      return {
        envelope: failure('tool_unavailable', { userMessage: `There is no tool named ${call.name}.` }),
        secrets: noSecrets,
      };
    }
    if (entry.record.state !== 'up') {
      return {
        envelope: failure('tool_unavailable', {
          userMessage: `The tool ${call.name} is not available right now.`,
        }),
        entry,
        secrets: noSecrets,
      };
    }
    if (call.signal?.aborted) {
      return {
        envelope: failure('timeout', { userMessage: 'The request was cancelled before it started.' }),
        entry,
        secrets: noSecrets,
      };
    }
    const gate = await statusGate(entry, call.subject);
    if (!gate.ok) return { envelope: gate.envelope, entry, secrets: noSecrets };
    const secrets = secretsFor(entry.tool.connectorId, gate.credentials);
    const validation = validate(entry, call.args);
    if (!validation.ok) return { envelope: validation.envelope, entry, secrets };
    if (entry.needsApproval || call.proposal) {
      const refusal = await approvalGate(call, entry);
      if (refusal) return { envelope: refusal, entry, secrets };
    }
    const envelope = await runAgent(call, entry, validation.value, gate.credentials, gate.scopes);
    await writeBack(call, entry, envelope);
    return { envelope, entry, secrets };
  }

  async function run(call: CallState): Promise<Envelope> {
    const started = performance.now();
    const span = instruments.tracer.startSpan('patchbay.tool.execute', {
      attributes: { 'patchbay.tool': call.name, 'patchbay.correlation_id': call.correlationId },
    });
    log.debug(
      { correlation_id: call.correlationId, tool: call.name, subject: call.subject },
      'tool call received',
    );
    let result: { envelope: Envelope; entry?: ToolEntry; secrets: readonly string[] };
    try {
      result = await pipeline(call);
    } catch (error) {
      log.error(
        { correlation_id: call.correlationId, tool: call.name, error: redactString(errorMessage(error)) },
        'tool call failed inside the orchestrator',
      );
      result = { envelope: failure('internal_error', {}), secrets: noSecrets };
    }
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    const { envelope } = result;
    const outcome = envelope.ok ? 'ok' : envelope.error_type;
    const final: Envelope = {
      ...envelope,
      meta: {
        ...(envelope.meta ?? {}),
        correlation_id: call.correlationId,
        tool: call.name,
        duration_ms: durationMs,
      },
    };
    const attributes = { tool: call.name, outcome };
    instruments.calls.add(1, attributes);
    instruments.duration.record(durationMs, attributes);
    span.setAttributes({
      'patchbay.outcome': outcome,
      'patchbay.duration_ms': durationMs,
      ...(result.entry ? { 'patchbay.agent': result.entry.record.agent.id } : {}),
      ...(result.entry?.tool.connectorId !== undefined
        ? { 'patchbay.connector': result.entry.tool.connectorId }
        : {}),
    });
    if (!envelope.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
    span.end();
    const line = {
      correlation_id: call.correlationId,
      tool: call.name,
      agent: result.entry?.record.agent.id,
      outcome,
      duration_ms: durationMs,
      ...(envelope.ok ? {} : { user_message: redactString(envelope.user_message, result.secrets) }),
    };
    if (envelope.ok) log.info(line, 'tool call succeeded');
    else if (expectedOutcomes.has(envelope.error_type)) log.info(line, 'tool call answered without running');
    else log.warn(line, 'tool call failed');
    return final;
  }

  const orchestrator: Orchestrator = {
    register,
    async unregister(agentId) {
      const record = recordOf(agentId);
      await stopRecord(record);
      record.unsubscribe?.();
      registry.remove(agentId);
      log.info({ agent: agentId }, 'agent unregistered');
    },
    registerFactory(kind, factory) {
      if (factories.has(kind))
        throw new PatchbayError(
          'duplicate_factory',
          `a factory for agent kind "${kind}" is already registered`,
        );
      factories.set(kind, factory as AgentFactory<never>);
    },
    create(kind, config) {
      const factory = factories.get(kind) as AgentFactory<typeof config> | undefined;
      if (!factory)
        throw new PatchbayError('unknown_agent_kind', `no factory is registered for agent kind "${kind}"`);
      const agent = factory(config);
      register(agent);
      return agent;
    },
    execute(name, args, executeOptions) {
      return run({
        name,
        args,
        subject: executeOptions.subject,
        signal: executeOptions.signal,
        correlationId: executeOptions.correlationId ?? randomUUID(),
      });
    },
    async approve(id, decision = {}) {
      const approved = await store.transition(id, 'pending', 'approved', {
        ...decision,
        at: now().toISOString(),
      });
      if (!approved) {
        const current = await store.get(id);
        throw new PatchbayError(
          current ? 'proposal_not_pending' : 'proposal_not_found',
          current ? `proposal ${id} is ${current.state}, not pending` : `no proposal with id ${id}`,
        );
      }
      log.info({ proposal_id: id, tool: approved.tool, decided_by: decision.decidedBy }, 'proposal approved');
      return approved;
    },
    async reject(id, decision) {
      const at = now().toISOString();
      const rejected =
        (await store.transition(id, 'pending', 'rejected', { ...decision, at })) ??
        (await store.transition(id, 'approved', 'rejected', { ...decision, at }));
      if (!rejected) {
        const current = await store.get(id);
        throw new PatchbayError(
          current ? 'proposal_not_pending' : 'proposal_not_found',
          current
            ? `proposal ${id} is ${current.state} and can no longer be rejected`
            : `no proposal with id ${id}`,
        );
      }
      log.info({ proposal_id: id, tool: rejected.tool, decided_by: decision.decidedBy }, 'proposal rejected');
      return rejected;
    },
    async executeProposal(id, executeOptions = {}) {
      const correlationId = executeOptions.correlationId ?? randomUUID();
      let proposal: Proposal | undefined;
      try {
        proposal = await store.get(id);
      } catch (error) {
        log.error({ proposal_id: id, error: redactString(errorMessage(error)) }, 'could not read proposal');
        return { ...failure('internal_error', {}), meta: { correlation_id: correlationId } };
      }
      const meta = { correlation_id: correlationId, ...(proposal ? { tool: proposal.tool } : {}) };
      if (!proposal) return { ...failure('not_found', { userMessage: `There is no proposal ${id}.` }), meta };
      if (proposal.state === 'pending') {
        return {
          ...failure('approval_required', {
            proposalId: id,
            userMessage: `Proposal ${id} has not been approved yet.`,
          }),
          meta,
        };
      }
      if (proposal.state === 'rejected') {
        return { ...failure('approval_denied', { userMessage: `Proposal ${id} was rejected.` }), meta };
      }
      if (proposal.state !== 'approved') {
        return {
          ...failure('conflict', {
            userMessage: `Proposal ${id} is ${proposal.state} and cannot run again.`,
          }),
          meta,
        };
      }
      return run({
        name: proposal.tool,
        args: proposal.args,
        subject: proposal.subject,
        signal: executeOptions.signal,
        correlationId,
        proposal,
      });
    },
    listProposals(filter) {
      return store.list(filter);
    },
    async start() {
      running = true;
      await Promise.all([...registry.agents.values()].map((record) => startRecord(record)));
      const failed = [...registry.agents.values()]
        .filter((record) => record.state !== 'up')
        .map((record) => record.agent.id);
      log.info({ agents: registry.agents.size, failed }, 'orchestrator started');
    },
    async stop() {
      running = false;
      await Promise.all([...registry.agents.values()].map((record) => stopRecord(record)));
      log.info({ agents: registry.agents.size }, 'orchestrator stopped');
    },
    async startAgent(agentId) {
      const record = recordOf(agentId);
      await startRecord(record);
      return probe(record);
    },
    async stopAgent(agentId) {
      await stopRecord(recordOf(agentId));
    },
    health: health as Orchestrator['health'],
    listTools() {
      return [...registry.tools.values()].map((entry) => entry.tool);
    },
    getTool(name) {
      return registry.lookup(name)?.tool;
    },
    listAgents() {
      return [...registry.agents.values()].map((record) => record.agent);
    },
  };

  for (const connector of options.connectors ?? []) {
    setupUrls[connector.id] = connector.setupUrl;
    secretFields[connector.id] = connector.auth.fields
      .filter((field) => field.secret !== false)
      .map((field) => field.name);
    register(connectorAgent(connector));
  }
  return orchestrator;
}
