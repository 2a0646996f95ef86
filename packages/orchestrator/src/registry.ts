import { PatchbayError } from '@patchbay/envelope';
import type { Agent, AgentHealth, AgentTool } from './agent.js';
import { definitionHash, requiresApproval } from './approval-policy.js';

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

/** What a re-index changed, for logs and proposal invalidation. */
export interface IndexChanges {
  added: string[];
  removed: string[];
  /** Tools whose pinned definition hash changed. */
  changed: { name: string; needsApproval: boolean; from: string; to: string }[];
  /** Tools skipped because another agent already serves the name. */
  conflicts: { name: string; owner: string }[];
}

/** What the registry remembers of a tool definition it has seen. */
interface Pin {
  hash: string;
  needsApproval: boolean;
}

/**
 * Agents and their tools, routed by tool name through a `Map` (constant-time lookup), with the
 * definition hash of every tool pinned. A tool that needed approval keeps needing it after its
 * definition changes, whatever the new annotations claim: otherwise a server could announce a
 * destructive tool, then re-announce it as read-only and have it run unapproved.
 */
export class ToolRegistry {
  readonly agents = new Map<string, AgentRecord>();
  readonly tools = new Map<string, ToolEntry>();
  private readonly pins = new Map<string, Pin>();

  /** The tool routed under a name. */
  lookup(name: string): ToolEntry | undefined {
    return this.tools.get(name);
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
      const existing = this.tools.get(tool.name);
      if (existing) {
        throw new PatchbayError(
          'duplicate_tool',
          `tool "${tool.name}" is already served by agent "${existing.record.agent.id}"; agent "${agent.id}" cannot register it too`,
        );
      }
    }
    const record: AgentRecord = { agent, state: 'stopped', toolNames: new Set() };
    this.agents.set(agent.id, record);
    this.apply(record, tools);
    return record;
  }

  /** Re-reads an agent's manifest; tools that collide with another agent's are skipped and reported. */
  reindex(record: AgentRecord): IndexChanges {
    return this.apply(record, record.agent.manifest().tools);
  }

  /** Removes an agent and its routes (pins stay, so a returning tool is still compared). */
  remove(agentId: string): AgentRecord | undefined {
    const record = this.agents.get(agentId);
    if (!record) return undefined;
    for (const name of record.toolNames) this.tools.delete(name);
    record.toolNames.clear();
    this.agents.delete(agentId);
    return record;
  }

  private apply(record: AgentRecord, tools: readonly AgentTool[]): IndexChanges {
    const changes: IndexChanges = { added: [], removed: [], changed: [], conflicts: [] };
    const next = new Set<string>();
    for (const tool of tools) {
      const existing = this.tools.get(tool.name);
      if (existing && existing.record !== record) {
        changes.conflicts.push({ name: tool.name, owner: existing.record.agent.id });
        continue;
      }
      if (next.has(tool.name)) continue;
      next.add(tool.name);
      const hash = definitionHash(tool);
      const pinKey = `${record.agent.id}\u0000${tool.name}`;
      const pinned = this.pins.get(pinKey);
      const needsApproval = requiresApproval(tool, record.agent) || (pinned?.needsApproval ?? false);
      if (pinned !== undefined && pinned.hash !== hash) {
        changes.changed.push({ name: tool.name, needsApproval, from: pinned.hash, to: hash });
      }
      this.pins.set(pinKey, { hash, needsApproval });
      if (!existing) changes.added.push(tool.name);
      this.tools.set(tool.name, {
        tool,
        record,
        definitionHash: hash,
        needsApproval,
        validationKey: `${tool.name}\u0000${hash}`,
      });
    }
    for (const name of record.toolNames) {
      if (!next.has(name)) {
        this.tools.delete(name);
        changes.removed.push(name);
      }
    }
    record.toolNames = next;
    return changes;
  }
}
