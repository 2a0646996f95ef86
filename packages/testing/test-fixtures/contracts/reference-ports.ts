import type { Credentials } from '@patchbay/connector';
import {
  type AuditEntry,
  type AuditSink,
  type Checkpointer,
  narrowState,
  type Proposal,
  type ProposalDecision,
  type ProposalState,
  type ProposalStore,
  type StatusSource,
  type StoredConnection,
  type StoredMessage,
  type Thread,
  type ThreadStore,
} from '@patchbay/connector/ports';
import type {
  AuditSinkHarness,
  CheckpointerHarness,
  ProposalStoreHarness,
  StatusSourceHarness,
  ThreadStoreHarness,
} from '../../src/index.js';

// Small, correct in-memory implementations of the five ports. The broken fixtures beside this file
// each copy one of them with a single defect, so a failing contract test points at that defect.
// `reopen` gives a second facade over the same data, as a second process would have.

/** Resolves after other pending callbacks ran, as a database round trip would. */
export const roundTrip = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** The connector status of every subject, as one store holds it. */
export interface StatusData {
  connections: Map<string, Map<string, StoredConnection>>;
  disabled: Map<string, Set<string>>;
  rateLimits: Map<string, Map<string, string>>;
}

/** Gets or creates the entry of a map of maps or sets. */
export function entry<Value>(map: Map<string, Value>, key: string, create: () => Value): Value {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** The UTC ISO form of a time, refusing what is no time. */
export function isoTime(value: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new Error(`not a valid time: ${value}`);
  return time.toISOString();
}

/** A correct status source over `data`. */
export function referenceStatusSource(data: StatusData): StatusSource {
  const source: StatusSource = {
    async loadConnectors(subject, connectorIds) {
      return narrowState(await source.load(subject), connectorIds);
    },
    async load(subject) {
      return {
        connections: [...(data.connections.get(subject)?.values() ?? [])].map((connection) =>
          structuredClone(connection),
        ),
        disabledConnectorIds: [
          ...new Set([...(data.disabled.get('') ?? []), ...(data.disabled.get(subject) ?? [])]),
        ],
        rateLimitedUntil: Object.fromEntries(data.rateLimits.get(subject) ?? []),
      };
    },
    async markRateLimited(subject, connectorId, until) {
      entry(data.rateLimits, subject, () => new Map()).set(connectorId, isoTime(until));
    },
    async markInvalidCredentials(subject, connectorId, error) {
      const connection = data.connections.get(subject)?.get(connectorId);
      if (connection) connection.credentialError = error;
    },
  };
  return source;
}

/** A harness around a status source made by `create` over fresh data. */
export function statusHarness(create: (data: StatusData) => StatusSource): StatusSourceHarness {
  const data: StatusData = { connections: new Map(), disabled: new Map(), rateLimits: new Map() };
  return {
    source: create(data),
    connect(subject, connectorId, { credentials, scopes }: { credentials: Credentials; scopes: string[] }) {
      entry(data.connections, subject, () => new Map()).set(connectorId, {
        connectorId,
        credentials: { ...credentials },
        scopes: [...scopes],
      });
    },
    disable(connectorId, subject) {
      entry(data.disabled, subject ?? '', () => new Set()).add(connectorId);
    },
    reopen: () => create(data),
  };
}

/** A correct proposal store over `proposals`. */
export function referenceProposalStore(proposals: Map<string, Proposal>): ProposalStore {
  return {
    async create(proposal) {
      if (proposals.has(proposal.id)) throw new Error(`proposal ${proposal.id} already exists`);
      proposals.set(proposal.id, structuredClone(proposal));
    },
    async get(id) {
      const proposal = proposals.get(id);
      return proposal && structuredClone(proposal);
    },
    async list(filter: { subject?: string; state?: ProposalState; tool?: string } = {}) {
      return [...proposals.values()]
        .filter((proposal) => filter.subject === undefined || proposal.subject === filter.subject)
        .filter((proposal) => filter.state === undefined || proposal.state === filter.state)
        .filter((proposal) => filter.tool === undefined || proposal.tool === filter.tool)
        .map((proposal) => structuredClone(proposal));
    },
    async transition(id, from, to, decision = {}) {
      const current = proposals.get(id);
      if (!current || current.state !== from) return undefined;
      const next = decided(current, to, decision);
      proposals.set(id, next);
      return structuredClone(next);
    },
  };
}

/**
 * The proposal after a transition: decision fields are written only by a decision, the approval's
 * MAC only by an approval; executing drops that MAC, a return to pending every decision field.
 */
export function decided(current: Proposal, to: ProposalState, decision: ProposalDecision): Proposal {
  const next: Proposal = { ...current, state: to };
  if (to === 'approved' || to === 'rejected') {
    next.decidedAt = decision.at ?? new Date().toISOString();
    if (decision.decidedBy !== undefined) next.decidedBy = decision.decidedBy;
    if (decision.reason !== undefined) next.reason = decision.reason;
    if (to === 'approved' && decision.approvalMac !== undefined) next.approvalMac = decision.approvalMac;
    else delete next.approvalMac;
  } else if (to === 'executed') {
    delete next.approvalMac;
  } else if (to === 'pending') {
    delete next.decidedAt;
    delete next.decidedBy;
    delete next.approvalMac;
  }
  return next;
}

/** A harness around a proposal store made by `create` over fresh data. */
export function proposalHarness(
  create: (proposals: Map<string, Proposal>) => ProposalStore,
): ProposalStoreHarness {
  const proposals = new Map<string, Proposal>();
  return { store: create(proposals), reopen: () => create(proposals) };
}

/** A correct thread store over `threads`. */
export function referenceThreadStore(threads: Map<string, StoredMessage[]>): ThreadStore {
  return {
    async load(threadId): Promise<Thread | undefined> {
      const messages = threads.get(threadId);
      return messages && { id: threadId, messages: structuredClone(messages) };
    },
    async append(threadId, messages) {
      if (messages.length === 0) return;
      entry(threads, threadId, () => []).push(...structuredClone([...messages]));
    },
  };
}

/** A harness around a thread store made by `create` over fresh data. */
export function threadHarness(
  create: (threads: Map<string, StoredMessage[]>) => ThreadStore,
): ThreadStoreHarness {
  const threads = new Map<string, StoredMessage[]>();
  return { threads: create(threads), reopen: () => create(threads) };
}

/** A correct checkpointer over `checkpoints` (JSON text by thread id). */
export function referenceCheckpointer(checkpoints: Map<string, string>): Checkpointer {
  return {
    async saveCheckpoint(threadId, value) {
      checkpoints.set(threadId, JSON.stringify(value));
    },
    async loadCheckpoint<T>(threadId: string) {
      const json = checkpoints.get(threadId);
      return json === undefined ? undefined : (JSON.parse(json) as T);
    },
    async deleteCheckpoint(threadId) {
      checkpoints.delete(threadId);
    },
  };
}

/** A harness around a checkpointer made by `create` over fresh data. */
export function checkpointerHarness(
  create: (checkpoints: Map<string, string>) => Checkpointer,
): CheckpointerHarness {
  const checkpoints = new Map<string, string>();
  return { checkpointer: create(checkpoints), reopen: () => create(checkpoints) };
}

/** A correct audit sink over `entries`. */
export function referenceAuditSink(entries: AuditEntry[]): AuditSink {
  return {
    async append(item) {
      entries.push(structuredClone({ ...item, at: item.at ?? new Date().toISOString() }));
    },
  };
}

/** A harness around an audit sink made by `create` over fresh data. */
export function auditHarness(create: (entries: AuditEntry[]) => AuditSink): AuditSinkHarness {
  const entries: AuditEntry[] = [];
  return { sink: create(entries), entries: async () => structuredClone(entries) };
}
