import { PatchbayError } from '@patchbay/envelope';
import type { Agent, AgentHealth, AgentTool } from './agent.js';
import { type ApprovalPolicy, definitionHash, requiresApproval } from './approval-policy.js';

/** Lifecycle state the orchestrator keeps per agent. */
export type AgentState = AgentHealth['status'];

/** One registered agent and what the registry knows about it. */
export interface AgentRecord {
  agent: Agent;
  state: AgentState;
  /** Why it is down, without secrets. */
  detail?: string | undefined;
  /** Tool names currently routed to this agent. */
  toolNames: Set<string>;
  /** The tools its manifest declared when last indexed, by name (routed or not). */
  declared: Map<string, AgentTool>;
  /** Names it declared when registered: checked unique then, so a later claim never displaces them. */
  registeredNames: ReadonlySet<string>;
  unsubscribe?: (() => void) | undefined;
  /** In-flight start, so concurrent starts share one initialize(). */
  starting?: Promise<void> | undefined;
}

/** A routable tool. */
export interface ToolEntry {
  tool: AgentTool;
  record: AgentRecord;
  definitionHash: string;
  needsApproval: boolean;
  /** Cache key of the compiled JSON Schema; changes with the definition. */
  validationKey: string;
}

/** A tool name more than one agent declares. */
export interface ToolConflict {
  name: string;
  /** Every agent declaring it, in the order they claimed it. */
  owners: string[];
  /** The agent it is routed to (the one that had it at registration), or undefined: served by none. */
  servedBy: string | undefined;
}

/** What a re-index changed, for logs and proposal invalidation. */
export interface IndexChanges {
  added: string[];
  removed: string[];
  /** Tools whose pinned definition hash changed. */
  changed: { name: string; needsApproval: boolean; from: string; to: string }[];
  /** Names the indexed agent shares with another agent. */
  conflicts: ToolConflict[];
}

/** What the registry remembers of a tool definition it has seen. */
interface Pin {
  hash: string;
  needsApproval: boolean;
}

const pinKey = (record: AgentRecord, name: string) => `${record.agent.id}\u0000${name}`;

/**
 * Agents and their tools, routed by tool name through a `Map` (constant-time lookup), with the
 * definition hash of every tool pinned. A tool that needed approval keeps needing it after its
 * definition changes, whatever the new annotations claim: otherwise a server could announce a
 * destructive tool, then re-announce it as read-only and have it run unapproved.
 *
 * Tool names are unique by construction. Registering an agent that declares a name another agent
 * declares throws. Names discovered later (an MCP server's tools arrive when it connects) cannot be
 * refused that way, so a name two agents declare is routed by a fixed rule, never by who connected
 * first: to the agent that declared it at registration if one did, otherwise to no one — a call of
 * an ambiguous name answers `tool_unavailable` until a prefix tells the two apart.
 */
export class ToolRegistry {
  readonly agents = new Map<string, AgentRecord>();
  readonly tools = new Map<string, ToolEntry>();
  private readonly pins = new Map<string, Pin>();
  /** Name → the agents declaring it, in claim order. */
  private readonly claims = new Map<string, AgentRecord[]>();

  /** @param approvals the deployment's approval policy; `destructive` mode everywhere when absent. */
  constructor(private readonly approvals?: ApprovalPolicy) {}

  /** The tool routed under a name. */
  lookup(name: string): ToolEntry | undefined {
    return this.tools.get(name);
  }

  /** Names more than one agent declares, sorted by name. */
  conflicts(): ToolConflict[] {
    return [...this.claims.keys()]
      .sort()
      .map((name) => this.conflictOf(name))
      .filter((conflict): conflict is ToolConflict => conflict !== undefined);
  }

  /** Adds an agent; throws `duplicate_agent` or `duplicate_tool` (naming both owners) without changing anything. */
  add(agent: Agent): AgentRecord {
    if (this.agents.has(agent.id)) {
      throw new PatchbayError('duplicate_agent', `an agent with id "${agent.id}" is already registered`);
    }
    const tools = agent.manifest().tools;
    const seen = new Set<string>();
    for (const tool of tools) {
      if (seen.has(tool.name)) {
        throw new PatchbayError(
          'duplicate_tool',
          `tool "${tool.name}" is declared twice by agent "${agent.id}"`,
        );
      }
      seen.add(tool.name);
      const existing = this.claims.get(tool.name)?.[0];
      if (existing) {
        throw new PatchbayError(
          'duplicate_tool',
          `tool "${tool.name}" is already served by agent "${existing.agent.id}"; agent "${agent.id}" cannot register it too (give one of them a prefix)`,
        );
      }
    }
    const record: AgentRecord = {
      agent,
      state: 'stopped',
      toolNames: new Set(),
      declared: new Map(),
      registeredNames: seen,
    };
    this.agents.set(agent.id, record);
    this.apply(record, tools);
    return record;
  }

  /** Re-reads an agent's manifest and routes every name it gained or lost again. */
  reindex(record: AgentRecord): IndexChanges {
    return this.apply(record, record.agent.manifest().tools);
  }

  /** Removes an agent and its routes (pins stay, so a returning tool is still compared); names it shared go back to the other declarer. */
  remove(agentId: string): AgentRecord | undefined {
    const record = this.agents.get(agentId);
    if (!record) return undefined;
    this.apply(record, []);
    this.agents.delete(agentId);
    return record;
  }

  private apply(record: AgentRecord, tools: readonly AgentTool[]): IndexChanges {
    const changes: IndexChanges = { added: [], removed: [], changed: [], conflicts: [] };
    const next = new Map<string, AgentTool>();
    for (const tool of tools) if (!next.has(tool.name)) next.set(tool.name, tool);
    const touched = new Set([...record.declared.keys(), ...next.keys()]);
    for (const name of record.declared.keys()) {
      if (next.has(name)) continue;
      const rest = (this.claims.get(name) ?? []).filter((claimant) => claimant !== record);
      if (rest.length > 0) this.claims.set(name, rest);
      else this.claims.delete(name);
    }
    for (const name of next.keys()) {
      if (record.declared.has(name)) continue;
      this.claims.set(name, [...(this.claims.get(name) ?? []), record]);
    }
    record.declared = next;
    const changed: IndexChanges['changed'] = [];
    const approver = { trusted: record.agent.trusted, requiresApproval: everyCallApproved(record.agent) };
    for (const [name, tool] of next) {
      const hash = definitionHash(tool);
      const pinned = this.pins.get(pinKey(record, name));
      const needsApproval =
        requiresApproval(tool, approver, this.approvals) || (pinned?.needsApproval ?? false);
      if (pinned !== undefined && pinned.hash !== hash) {
        changed.push({ name, needsApproval, from: pinned.hash, to: hash });
      }
      this.pins.set(pinKey(record, name), { hash, needsApproval });
    }
    for (const name of touched) this.route(name, changes);
    // Only the definition that is routed can void approvals: another declarer's change concerns no call.
    changes.changed = changed.filter((change) => this.tools.get(change.name)?.record === record);
    return changes;
  }

  /** Routes one name by the rule in the class comment, recording what changed. */
  private route(name: string, changes: IndexChanges): void {
    const claimants = this.claims.get(name) ?? [];
    const owner = ownerOf(name, claimants);
    const conflict = this.conflictOf(name);
    if (conflict) changes.conflicts.push(conflict);
    const current = this.tools.get(name);
    if (current && current.record !== owner) {
      current.record.toolNames.delete(name);
      this.tools.delete(name);
      if (!owner) changes.removed.push(name);
    }
    if (!owner) return;
    const tool = owner.declared.get(name)!;
    const pin = this.pins.get(pinKey(owner, name))!;
    if (!current) changes.added.push(name);
    this.tools.set(name, {
      tool,
      record: owner,
      definitionHash: pin.hash,
      needsApproval: pin.needsApproval,
      validationKey: `${name}\u0000${pin.hash}`,
    });
    owner.toolNames.add(name);
  }

  private conflictOf(name: string): ToolConflict | undefined {
    const claimants = this.claims.get(name) ?? [];
    if (claimants.length < 2) return undefined;
    return {
      name,
      owners: claimants.map((claimant) => claimant.agent.id),
      servedBy: ownerOf(name, claimants)?.agent.id,
    };
  }
}

/** The one agent a name is routed to: its only declarer, else the one declarer that had it at registration. */
function ownerOf(name: string, claimants: readonly AgentRecord[]): AgentRecord | undefined {
  if (claimants.length === 1) return claimants[0];
  const registered = claimants.filter((claimant) => claimant.registeredNames.has(name));
  return registered.length === 1 ? registered[0] : undefined;
}

/** Whether the agent's manifest asks for a person's approval of every call; a manifest that throws asks nothing. */
function everyCallApproved(agent: Agent): boolean {
  try {
    return agent.manifest().requiresApproval === true;
  } catch {
    return false;
  }
}
