// The gate of a run as `gate:` sets it up (scenario-format/gate-schema.ts): the orchestrator's log
// recorded for `logged`, the proposal store wrapped to behave as a shared or faulty database, and the
// approval policy handed to createOrchestrator (or refused by it, `gate.refused`).
import type { Proposal, ProposalStore } from '@patchbay/connector/ports';
import { createInMemoryProposalStore } from '@patchbay/orchestrator';
import type { GateSpec } from './scenario-format/gate-schema.js';

/** One line the orchestrator logged. */
export interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * A logger of pino's shape that records every line into `lines` (the orchestrator makes a redacting
 * child of it; the child is this same recorder, so the lines are recorded before pino's redaction,
 * which these checks do not test).
 */
export function recordingLogger(lines: LogLine[]): Record<string, unknown> {
  const logger: Record<string, unknown> = {
    level: 'trace',
    isLevelEnabled: () => true,
    child: () => logger,
    bindings: () => ({}),
    flush: () => {},
    silent: () => {},
  };
  for (const level of levels)
    logger[level] = (fields: unknown, message?: unknown) => {
      const record = typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {};
      const text = typeof fields === 'string' ? fields : typeof message === 'string' ? message : '';
      lines.push({ level, message: text, fields: { ...record } });
    };
  return logger;
}

/** A proposal store as `gate.proposals` makes it, with what the harness does to it. */
export interface GateProposals {
  store: ProposalStore;
  /** Edits a row as a writer to the database would (`reset_executed`). */
  setProposal(id: string, columns: Record<string, string | null>): Promise<void>;
  /** Arms a one-shot hook run once the store's next `list` returned (`cancel_while_listing`). */
  onList(hook: () => void): void;
}

/**
 * An in-memory proposal store that behaves as `behaviour` says: `keeps_approval_mac` keeps the
 * approval MAC on a row moved to `executed` (written against the port before it said to drop it);
 * `loses_race` lets another instance consume every approval a moment before this one tries (the
 * row is `executed` and this transition finds it so); `ignores_tool_filter` answers `list` without
 * the `tool` filter (a store that does not index it). Without a behaviour, the plain store.
 */
export function gateProposals(behaviour: GateSpec['proposals']): GateProposals {
  const rows = new Map<string, Proposal>();
  let listHook: (() => void) | undefined;
  const remember = (proposal: Proposal | undefined) => {
    if (proposal) rows.set(proposal.id, proposal);
    return proposal;
  };
  const store: ProposalStore = {
    async create(proposal) {
      if (rows.has(proposal.id)) throw new Error(`proposal ${proposal.id} exists`);
      rows.set(proposal.id, { ...proposal });
    },
    async get(id) {
      const edited = rows.get(id);
      return edited ? { ...edited } : undefined;
    },
    async list(filter = {}) {
      const { tool, ...rest } = filter;
      const kept = behaviour === 'ignores_tool_filter' ? rest : filter;
      const found = [...rows.values()]
        .filter((row) => kept.subject === undefined || row.subject === kept.subject)
        .filter((row) => kept.state === undefined || row.state === kept.state)
        .filter((row) => !('tool' in kept) || kept.tool === undefined || row.tool === kept.tool)
        .map((row) => ({ ...row }));
      const hook = listHook;
      listHook = undefined;
      hook?.();
      return found;
    },
    async transition(id, from, to, decision) {
      const current = rows.get(id);
      if (!current || current.state !== from) return undefined;
      if (behaviour === 'loses_race' && from === 'approved' && to === 'executed') {
        // Another instance of the app got there first: the row is used, this move finds it so.
        rows.set(id, { ...current, state: 'executed' });
        return undefined;
      }
      // The port's rules applied to the row as it is now (edits included).
      const next = await applyMove(current, to, decision);
      if (behaviour === 'keeps_approval_mac' && to === 'executed' && current.approvalMac !== undefined)
        next.approvalMac = current.approvalMac;
      return { ...remember(next)! };
    },
  };
  return {
    store,
    async setProposal(id, columns) {
      const current = rows.get(id);
      if (!current) throw new Error(`no proposal ${id} to edit`);
      const next: Record<string, unknown> = { ...current };
      for (const [column, value] of Object.entries(columns)) {
        if (value === null) delete next[column];
        else next[column] = value;
      }
      rows.set(id, next as unknown as Proposal);
    },
    onList(hook) {
      listHook = hook;
    },
  };
}

/** A move as the port describes it, applied to a row (the in-memory store's rules). */
async function applyMove(
  current: Proposal,
  to: Proposal['state'],
  decision: Parameters<ProposalStore['transition']>[3] = {},
): Promise<Proposal> {
  const scratch = createInMemoryProposalStore();
  await scratch.create({ ...current });
  return (await scratch.transition(current.id, current.state, to, decision))!;
}

/** How createOrchestrator answered `gate.approvals` when the scenario expects a refusal. */
export interface PolicyRefusal {
  error_code?: string;
  message: string;
}

/**
 * Creates the orchestrator with `gate.approvals`. With `gate.refused`, a refusal is expected: it is
 * returned, and the orchestrator is made again without the policy so the turns can run; a policy
 * accepted anyway is returned as `refusal: null`.
 */
export function withApprovals<Options extends object, Made>(
  create: (options: Options & { approvals?: never }) => Made,
  options: Options,
  gate: GateSpec | undefined,
): { made: Made; refusal?: PolicyRefusal | null } {
  const approvals = gate?.approvals ? { approvals: gate.approvals } : {};
  if (!gate?.refused) return { made: create({ ...options, ...approvals } as never) };
  try {
    return { made: create({ ...options, ...approvals } as never), refusal: null };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return {
      made: create(options as never),
      refusal: { ...(code !== undefined ? { error_code: code } : {}), message: String(message) },
    };
  }
}

/** How many proposals are in each state. */
export function countStates(proposals: readonly Proposal[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const proposal of proposals) counts[proposal.state] = (counts[proposal.state] ?? 0) + 1;
  return counts;
}
