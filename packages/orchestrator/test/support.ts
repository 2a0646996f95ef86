import { Writable } from 'node:stream';
import type {
  Proposal,
  ProposalStore,
  StatusSource,
  StoredConnection,
  SubjectState,
} from '@patchbay/connector/ports';
import { success } from '@patchbay/envelope';
import { pino } from 'pino';
import type { Agent, AgentCallContext, AgentHealth, AgentTool } from '../src/agent.js';
import { createInMemoryProposalStore } from '../src/in-memory-proposal-store.js';

export { acmeConnection, createAcmeConnector, createAcmeServer, secretToken, serviceUrl } from './acme.js';

/** An in-memory StatusSource used as a test fixture; it records every write-back. */
export function createTestStatusSource(initial: Record<string, Partial<SubjectState>> = {}) {
  const subjects = new Map<string, SubjectState>();
  const state = (subject: string): SubjectState => {
    let current = subjects.get(subject);
    if (!current) {
      current = { connections: [], disabledConnectorIds: [], rateLimitedUntil: {}, ...initial[subject] };
      subjects.set(subject, current);
    }
    return current;
  };
  const writes: {
    kind: 'rate_limited' | 'invalid_credentials';
    subject: string;
    connectorId: string;
    value: string;
  }[] = [];
  let loads = 0;
  const source: StatusSource & {
    writes: typeof writes;
    loads: () => number;
    connect: (subject: string, connection: StoredConnection) => void;
    disable: (subject: string, connectorId: string) => void;
  } = {
    writes,
    loads: () => loads,
    async load(subject) {
      loads += 1;
      return structuredClone(state(subject));
    },
    async markRateLimited(subject, connectorId, until) {
      writes.push({ kind: 'rate_limited', subject, connectorId, value: until });
      state(subject).rateLimitedUntil[connectorId] = until;
    },
    async markInvalidCredentials(subject, connectorId, error) {
      writes.push({ kind: 'invalid_credentials', subject, connectorId, value: error });
      const connection = state(subject).connections.find(
        (candidate) => candidate.connectorId === connectorId,
      );
      if (connection) connection.credentialError = error;
    },
    connect(subject, connection) {
      const current = state(subject);
      current.connections = current.connections.filter(
        (candidate) => candidate.connectorId !== connection.connectorId,
      );
      current.connections.push(connection);
    },
    disable(subject, connectorId) {
      state(subject).disabledConnectorIds.push(connectorId);
    },
  };
  return source;
}

/** A hand-written in-process agent with JSON-Schema tools (no `validate`), counting its calls. */
export function createCountingAgent(
  options: {
    id?: string;
    tools?: Partial<AgentTool>[];
    trusted?: boolean;
    execute?: (toolName: string, args: unknown, context: AgentCallContext) => Promise<unknown>;
    initialize?: () => Promise<void>;
    health?: () => Promise<AgentHealth>;
    shutdown?: () => Promise<void>;
  } = {},
) {
  const calls: { toolName: string; args: unknown; context: AgentCallContext }[] = [];
  let tools: AgentTool[] = (options.tools ?? [{ name: 'count_echo' }]).map((tool) => ({
    name: 'count_echo',
    description: 'Echoes its arguments back.',
    inputJsonSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'Text to echo' } },
      required: ['text'],
    },
    effect: 'read',
    requiredScopes: [],
    requires: [],
    annotations: { readOnlyHint: true },
    ...tool,
  }));
  const listeners = new Set<() => void>();
  const agent: Agent & {
    calls: typeof calls;
    setTools: (next: AgentTool[]) => void;
    tools: () => AgentTool[];
  } = {
    id: options.id ?? 'counting',
    trusted: options.trusted ?? true,
    calls,
    tools: () => tools,
    setTools(next) {
      tools = next;
      for (const listener of listeners) listener();
    },
    initialize: options.initialize ?? (async () => {}),
    shutdown: options.shutdown ?? (async () => {}),
    health: options.health ?? (async () => ({ status: 'up' })),
    manifest: () => ({ id: options.id ?? 'counting', kind: 'mcp', tools }),
    async execute(toolName, args, context) {
      calls.push({ toolName, args, context });
      if (options.execute) return (await options.execute(toolName, args, context)) as never;
      return success({ echoed: args });
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return agent;
}

/** A pino logger writing JSON lines into an array, to inspect what was logged. */
export function captureLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = pino({ level: 'debug' }, stream);
  return { logger, lines, text: () => lines.join('\n') };
}

/**
 * A proposal store whose rows a test can rewrite behind the gate's back, as someone with write
 * access to the database could. Same compare-and-set semantics as the in-memory store.
 */
export function createTamperableProposalStore() {
  const inner = createInMemoryProposalStore();
  const rows = new Map<string, Proposal>();
  const store: ProposalStore & {
    tamper: (id: string, patch: Partial<Proposal>) => void;
    row: (id: string) => Proposal | undefined;
  } = {
    async create(proposal) {
      await inner.create(proposal);
      rows.set(proposal.id, structuredClone(proposal));
    },
    async get(id) {
      const row = rows.get(id);
      return row ? structuredClone(row) : undefined;
    },
    async list(filter = {}) {
      return [...rows.values()]
        .filter((row) => filter.subject === undefined || row.subject === filter.subject)
        .filter((row) => filter.state === undefined || row.state === filter.state)
        .map((row) => structuredClone(row));
    },
    async transition(id, from, to, decision) {
      const row = rows.get(id);
      if (!row || row.state !== from) return undefined;
      // The inner store computes the decision fields; the tampered row keeps the rest.
      await inner.transition(id, (await inner.get(id))!.state, to, decision);
      const moved = (await inner.get(id))!;
      const next: Proposal = { ...row, state: to };
      for (const field of ['decidedAt', 'decidedBy', 'reason', 'approvalMac'] as const) {
        if (moved[field] === undefined) delete next[field];
        else next[field] = moved[field];
      }
      rows.set(id, next);
      return structuredClone(next);
    },
    tamper(id, patch) {
      rows.set(id, { ...rows.get(id)!, ...patch });
    },
    row: (id) => rows.get(id),
  };
  return store;
}
