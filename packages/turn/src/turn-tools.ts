import type { JSONSchema7, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import type { Connector, StatusSnapshot, ToolEffect } from '@patchbay/connector';
import type { Envelope } from '@patchbay/envelope';
import { toolAvailability, toolDescriptionForModel } from '@patchbay/helpers';
import type { Agent, AgentHealth, AgentTool } from '@patchbay/orchestrator';
import {
  exposedTools,
  isMetaTool,
  type MetaToolDefinition,
  refreshConnectorStatusToolName,
  type ServerStatus,
  toLanguageModelTools,
} from '@patchbay/protocol';
import type { ToolInputContract } from './call-identity.js';
import { mapModelToolNames } from './model-tool-names.js';
import type { RunTurnOptions } from './turn-types.js';

/** The tools one model call is offered: names for the trace, definitions for the model. */
export interface ToolOffer {
  /** The tools' real names (the gate's, the trace's). */
  names: string[];
  /** Definitions for the model, each under its model name (see `toModelToolName`). */
  tools: LanguageModelV4FunctionTool[];
  /**
   * The name a model calls → the real name, for every offered tool. A name the model was not shown
   * (a made-up one, or a real name that had to be mapped) is absent: such a call is not offered.
   */
  toReal: ReadonlyMap<string, string>;
  /** Name → id of the agent that serves it (connector agents as `connector:<id>`); not for the meta-tool. */
  owners: ReadonlyMap<string, string>;
  /**
   * Name → why a tool of an installed connector is not offered now (`connector_not_configured` with
   * its setup URL, `permission_denied` with the missing scopes, `rate_limited`, …), so a model that
   * calls it anyway learns what the user can do. Connectors an admin disabled are not in it: the
   * model must not hear of them, so such a call gets the plain `tool_unavailable`.
   */
  unavailable: ReadonlyMap<string, Envelope>;
}

/** What the turn reads of the orchestrator's agents at one moment. */
export interface AgentView {
  /** Tools of the orchestrator's function and MCP agents that may be offered now, each with its owner. */
  tools: { tool: AgentTool; owner: string }[];
  /** MCP servers for the status block: up → connected, down or starting → unavailable. */
  servers: ServerStatus[];
}

type TurnOrchestrator = RunTurnOptions['orchestrator'];

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The last routing read per orchestrator, with the registry lists it was read from. */
const routings = new WeakMap<
  object,
  { tools: readonly AgentTool[]; agents: readonly Agent[]; routed: Map<Agent, AgentTool[]> }
>();

const sameItems = (left: readonly object[], right: readonly object[]) =>
  left.length === right.length && left.every((item, index) => item === right[index]);

/**
 * Routed tools per agent, read again only when the registry's tools or agents changed (they are
 * compared by identity: the registry keeps its objects until an agent's tools change). The turn
 * reads it before every model call; most steps find the registry as it was.
 */
function routedToolsOf(orchestrator: TurnOrchestrator): Map<Agent, AgentTool[]> {
  if (!orchestrator.listAgents || !orchestrator.listTools) return new Map();
  const tools = orchestrator.listTools();
  const agents = orchestrator.listAgents();
  const last = routings.get(orchestrator);
  if (last && sameItems(last.tools, tools) && sameItems(last.agents, agents)) return last.routed;
  const routed = readRouting(tools, agents);
  routings.set(orchestrator, { tools, agents, routed });
  return routed;
}

/** Routed tools per agent: a manifest tool counts only if the registry routes that name to that agent. */
function readRouting(tools: readonly AgentTool[], agents: readonly Agent[]): Map<Agent, AgentTool[]> {
  const result = new Map<Agent, AgentTool[]>();
  const routed = new Map(tools.map((tool) => [tool.name, tool]));
  const claimed = new Set<string>();
  // The registry keeps the definition object the owner's manifest returned: identity finds the owner.
  // Agents that build fresh objects per manifest fall back to the first declarer.
  const manifests = new Map<Agent, ReturnType<Agent['manifest']> | undefined>();
  for (const agent of agents) {
    try {
      manifests.set(agent, agent.manifest());
    } catch {
      manifests.set(agent, undefined);
    }
  }
  for (const pass of ['identity', 'name'] as const) {
    for (const agent of agents) {
      const manifest = manifests.get(agent);
      if (!manifest || manifest.kind === 'connector') continue;
      for (const tool of manifest.tools) {
        const current = routed.get(tool.name);
        if (!current || claimed.has(tool.name)) continue;
        if (pass === 'identity' && current !== tool) continue;
        claimed.add(tool.name);
        const list = result.get(agent) ?? [];
        list.push(current);
        result.set(agent, list);
      }
    }
  }
  return result;
}

/** The health as last observed (MCP agents, no I/O), else the orchestrator's bounded health check. */
async function healthOf(agent: Agent, orchestrator: TurnOrchestrator): Promise<AgentHealth> {
  const observed = agent.observedHealth?.();
  if (observed) return observed;
  if (!orchestrator.health) return { status: 'up' };
  try {
    return await orchestrator.health(agent.id);
  } catch {
    return { status: 'down' };
  }
}

/**
 * Reads the orchestrator's function and MCP agents for one subject: the tools that can run now
 * (agent up, not admin-disabled, `requires` connected) and the MCP servers for the status block.
 * An MCP server disabled by an admin (its name in the snapshot's `disabledIds`, read in the same
 * load as the status, never in a second round trip) or stopped (never started, `autoStart: false`,
 * stopped by an operator) is left out of both, as a disabled connector is.
 */
export async function viewAgents(
  orchestrator: TurnOrchestrator,
  snapshot: StatusSnapshot,
): Promise<AgentView> {
  const disabledIds = snapshot.disabledIds ?? [];
  const view: AgentView = { tools: [], servers: [] };
  const routed = routedToolsOf(orchestrator);
  const agents = [...routed.keys()];
  // MCP servers without tools still belong in the block (up with none, or down).
  for (const agent of orchestrator.listAgents?.() ?? []) {
    if (!routed.has(agent) && kindOf(agent) === 'mcp') agents.push(agent);
  }
  const healths = await Promise.all(agents.map((agent) => healthOf(agent, orchestrator)));
  agents.forEach((agent, index) => {
    if (disabledIds.includes(agent.id)) return;
    const health = healths[index]!;
    const runnable = (routed.get(agent) ?? []).filter(
      (tool) =>
        tool.connectorId === undefined &&
        tool.name !== refreshConnectorStatusToolName &&
        toolAvailability(tool, snapshot).available,
    );
    if (health.status === 'up') {
      for (const tool of runnable) view.tools.push({ tool, owner: agent.id });
    }
    if (kindOf(agent) !== 'mcp' || health.status === 'stopped') return;
    view.servers.push(
      health.status === 'up'
        ? { id: agent.id, status: 'connected', tools: runnable.map((tool) => tool.name).sort() }
        : (signInStatus(agent.id, health) ?? {
            id: agent.id,
            status: 'unavailable',
            retryAfter: health.retryAt,
          }),
    );
  });
  view.servers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return view;
}

/**
 * A remote MCP server that is down for want of a sign-in (`@patchbay/mcp` health: `reason` and
 * `setupCommand`, read structurally so the turn needs no MCP dependency): never signed in →
 * `not_configured`, the stored sign-in refused → `invalid_credentials`, each with the command.
 */
function signInStatus(id: string, health: AgentHealth): ServerStatus | undefined {
  if (health.status !== 'down') return undefined;
  const { reason, setupCommand } = health as AgentHealth & { reason?: unknown; setupCommand?: unknown };
  if (typeof setupCommand !== 'string') return undefined;
  if (reason === 'needs_authorization') return { id, status: 'not_configured', setupCommand };
  if (reason === 'authorization_rejected') {
    return {
      id,
      status: 'invalid_credentials',
      setupCommand,
      error: 'The server refused the stored sign-in (revoked or expired).',
    };
  }
  return undefined;
}

function kindOf(agent: Agent): string | undefined {
  try {
    return agent.manifest().kind;
  } catch {
    return undefined;
  }
}

/**
 * The tools offered for the next model call: the connectors' tools that can work for the subject
 * now (from a fresh status), the orchestrator's function tools and the tools of MCP servers that are
 * up (from {@link viewAgents}), all sorted by name so the array changes only when status does, then
 * `refresh_connector_status`. Every one of them is still run through the orchestrator's gate.
 */
export function offerTools(
  snapshot: StatusSnapshot,
  connectors: readonly Connector[],
  agents: AgentView = { tools: [], servers: [] },
  setupUrls?: Readonly<Record<string, string | undefined>>,
): ToolOffer {
  const exposed = exposedTools(snapshot, connectors);
  const connectorTools = exposed.filter(
    (tool): tool is Exclude<typeof tool, MetaToolDefinition> => !isMetaTool(tool),
  );
  const owners = new Map<string, string>();
  const entries: { name: string; definition: LanguageModelV4FunctionTool }[] = [];
  const connectorDefinitions = toLanguageModelTools(connectorTools);
  connectorTools.forEach((tool, index) => {
    owners.set(tool.name, `connector:${tool.connectorId ?? tool.name.split('_')[0]}`);
    entries.push({ name: tool.name, definition: connectorDefinitions[index]! });
  });
  for (const { tool, owner } of agents.tools) {
    // A name a connector already serves here stays the connector's: the registry refuses the pair anyway.
    if (owners.has(tool.name)) continue;
    owners.set(tool.name, owner);
    entries.push({
      name: tool.name,
      definition: {
        type: 'function',
        name: tool.name,
        description: toolDescriptionForModel(tool),
        inputSchema: tool.inputJsonSchema as JSONSchema7,
      },
    });
  }
  entries.sort(byName);
  const meta = toLanguageModelTools(exposed.filter(isMetaTool));
  const names = [...entries.map((entry) => entry.name), ...meta.map((tool) => tool.name)];
  // MCP servers name tools as they like (`get.weather`, `ns/tool`, 80 characters); model APIs refuse
  // a whole request over one such name, so the model sees a mapped name and its calls are mapped back.
  const { toModel, toReal } = mapModelToolNames(names);
  return {
    names,
    tools: [...entries.map((entry) => entry.definition), ...meta].map((definition) =>
      toModel.get(definition.name) === definition.name
        ? definition
        : { ...definition, name: toModel.get(definition.name)! },
    ),
    toReal,
    owners,
    unavailable: whyNotOffered(snapshot, connectors, owners, setupUrls),
  };
}

/** What the turn knows about a tool by name: its effect and its input contract. */
export interface ToolFacts extends ToolInputContract {
  effect: ToolEffect | undefined;
}

/**
 * Looks a tool up among the turn's connectors (which carry the zod schema the tool parses with),
 * then in the orchestrator's registry (functions and MCP tools: the JSON Schema the gate checks).
 */
export function toolFacts(
  toolName: string,
  connectors: readonly Connector[],
  orchestrator: TurnOrchestrator,
): ToolFacts {
  for (const connector of connectors) {
    const tool = connector.tools.find((candidate) => candidate.name === toolName);
    if (tool) return { effect: tool.effect, input: tool.input, inputJsonSchema: tool.inputJsonSchema };
  }
  const registered = orchestrator.getTool?.(toolName);
  return { effect: registered?.effect, inputJsonSchema: registered?.inputJsonSchema };
}

/** For each tool of an installed, not admin-disabled connector that is not offered: the gate's answer. */
export function whyNotOffered(
  snapshot: StatusSnapshot,
  connectors: readonly Connector[],
  offered: ReadonlyMap<string, string>,
  setupUrls: Readonly<Record<string, string | undefined>> | undefined,
): Map<string, Envelope> {
  const answers = new Map<string, Envelope>();
  for (const connector of connectors) {
    const entry = snapshot.connectors[connector.id];
    if (!entry || entry.status === 'disabled_by_admin') continue;
    for (const tool of connector.tools) {
      if (offered.has(tool.name)) continue;
      const availability = toolAvailability({ ...tool, connectorId: connector.id }, snapshot, {
        setupUrls: { [connector.id]: setupUrls?.[connector.id] ?? connector.setupUrl },
      });
      if (!availability.available) answers.set(tool.name, availability.envelope);
    }
  }
  return answers;
}
