import { PatchbayError, redactString } from '@patchbay/envelope';
import type { Agent, AgentFactory, AgentHealth } from './agent.js';
import { delay, errorMessage, type GateContext } from './gate-context.js';
import type { AgentRecord, IndexChanges } from './registry.js';

/** Health of every agent and a summary. */
export interface OrchestratorHealth {
  /** `up` when every agent is up, `down` when none is, `degraded` otherwise. */
  status: 'up' | 'degraded' | 'down';
  agents: Record<string, AgentHealth>;
}

/** An agent whose shutdown threw or outlived the stop limit (it counts as stopped all the same). */
export interface ShutdownFailure {
  agentId: string;
  code: 'agent_shutdown_failed';
  /** A sentence without secrets. */
  detail: string;
}

/** What {@link AgentLifecycle.stop} reports: every agent whose shutdown failed (seed 003: logged, never blocking). */
export interface OrchestratorStopReport {
  failed: ShutdownFailure[];
}

/** Agent records and their start, stop and health: the lifecycle half of the orchestrator. */
export interface AgentLifecycle {
  register(agent: Agent): void;
  unregister(agentId: string): Promise<void>;
  registerFactory<Config>(kind: string, factory: AgentFactory<Config>): void;
  create<Config>(kind: string, config: Config): Agent;
  start(): Promise<void>;
  stop(): Promise<OrchestratorStopReport>;
  startAgent(agentId: string): Promise<AgentHealth>;
  stopAgent(agentId: string): Promise<void>;
  health(agentId?: string): Promise<AgentHealth | OrchestratorHealth>;
}

/**
 * Creates the lifecycle part. `onApprovalsVoided` hears of every tool whose changed definition
 * voids earlier approvals (the proposals part expires them).
 */
export function createAgentLifecycle(
  context: GateContext,
  onApprovalsVoided: (tool: string, currentHash: string) => void,
): AgentLifecycle {
  const { log, registry, limits } = context;
  const factories = new Map<string, AgentFactory<never>>();
  let running = false;

  function report(record: AgentRecord, changes: IndexChanges): void {
    const agentId = record.agent.id;
    if (changes.added.length || changes.removed.length) {
      log.info({ agent: agentId, added: changes.added, removed: changes.removed }, 'agent tools changed');
    }
    for (const conflict of changes.conflicts) {
      const others = conflict.owners.filter((owner) => owner !== conflict.servedBy);
      const quoted = (ids: readonly string[]) => ids.map((id) => `"${id}"`).join(' and ');
      // An error, not a warning: a call of this name cannot reach the agent the caller may have meant.
      log.error(
        {
          agent: agentId,
          tool: conflict.name,
          owners: conflict.owners,
          served_by: conflict.servedBy ?? null,
        },
        conflict.servedBy === undefined
          ? `tool "${conflict.name}" is declared by agents ${quoted(conflict.owners)}: neither serves it until a prefix tells them apart`
          : `tool "${conflict.name}" of agent ${quoted(others)} is not served: agent "${conflict.servedBy}" had it first; give one of them a prefix`,
      );
    }
    for (const change of changes.changed) {
      context.validator.forget(`${change.name}\u0000`);
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
      if (change.needsApproval) onApprovalsVoided(change.name, change.to);
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
    const { startTimeoutMs } = limits;
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

  /** Stops one agent; resolves to why its shutdown failed (it counts as stopped either way), or undefined. */
  async function stopRecord(record: AgentRecord): Promise<ShutdownFailure | undefined> {
    if (record.starting) await record.starting;
    if (record.state === 'stopped') return undefined;
    record.state = 'stopped';
    const agentId = record.agent.id;
    const { stopTimeoutMs } = limits;
    const limit = delay(stopTimeoutMs, 'timed_out' as const);
    try {
      const outcome = await Promise.race([
        record.agent.shutdown().then(() => 'stopped' as const),
        limit.promise,
      ]);
      if (outcome === 'timed_out') {
        const detail = `The agent "${agentId}" did not shut down within ${stopTimeoutMs} ms.`;
        log.warn(
          { agent: agentId, code: 'agent_shutdown_failed' },
          `agent did not shut down within ${stopTimeoutMs} ms`,
        );
        return { agentId, code: 'agent_shutdown_failed', detail };
      }
      log.info({ agent: agentId }, 'agent stopped');
      return undefined;
    } catch (error) {
      const reason = redactString(errorMessage(error));
      log.error({ agent: agentId, code: 'agent_shutdown_failed', error: reason }, 'agent shutdown failed');
      return {
        agentId,
        code: 'agent_shutdown_failed',
        detail: `The agent "${agentId}" failed to shut down: ${reason}`,
      };
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
    const limit = delay<AgentHealth>(limits.healthTimeoutMs, {
      status: 'down',
      detail: 'health probe timed out',
    });
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

  return {
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
      const outcomes = await Promise.all([...registry.agents.values()].map((record) => stopRecord(record)));
      const failed = outcomes.filter((outcome): outcome is ShutdownFailure => outcome !== undefined);
      log.info({ agents: registry.agents.size, failed: failed.length }, 'orchestrator stopped');
      return { failed };
    },
    async startAgent(agentId) {
      const record = recordOf(agentId);
      await startRecord(record);
      return probe(record);
    },
    async stopAgent(agentId) {
      const failure = await stopRecord(recordOf(agentId));
      if (failure) throw new PatchbayError(failure.code, failure.detail);
    },
    health,
  };
}
