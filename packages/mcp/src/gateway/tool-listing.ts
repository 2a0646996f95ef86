import type { Connector, StatusSnapshot } from '@patchbay/connector';
import { toolAvailability } from '@patchbay/helpers';
import type { Agent, AgentTool, Orchestrator } from '@patchbay/orchestrator';
import { exposedTools, isMetaTool, refreshConnectorStatusToolName } from '@patchbay/protocol';
import type { Tool as McpTool } from '../sdk.js';
import { agentToolToMcp, toMcpTool } from './mcp-tool.js';

/** The parts of the orchestrator the listing reads. */
export type ListingOrchestrator = Partial<
  Pick<Orchestrator, 'listTools' | 'listAgents' | 'getTool' | 'health'>
>;

/** Which tools one subject sees now: exposed connector tools, tools of agents that are up, the meta-tool. */
export interface ToolListing {
  /** What `tools/list` answers for a snapshot: every tool the subject can run now, by name, then the meta-tool. */
  list(snapshot: StatusSnapshot): Promise<McpTool[]>;
  /** Whether a name is a tool of a connector given to the gateway. */
  isConnectorTool(name: string): boolean;
  /** Whether a name is one of the orchestrator's other tools (a function, an MCP server's tool). */
  isAgentTool(name: string): boolean;
  /** Ids of agents still starting (an MCP server connecting for the first time). */
  startingAgents(): string[];
  /**
   * Waits until no agent is starting, at most `limitMs`: a host lists once after `initialize`, so
   * the first answer should hold the servers that are about to come up. Resolves to the ids still starting.
   */
  waitForStartingAgents(limitMs: number, signal?: AbortSignal): Promise<string[]>;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// Starting is observed without I/O (observedHealth), so a short poll costs nothing and needs no
// event the agent interface does not have (a failed start sends no tools-changed).
const startPollMs = 25;

/** Creates the listing for the connectors given to the gateway and the orchestrator's other agents. */
export function createToolListing(
  orchestrator: ListingOrchestrator,
  connectors: readonly Connector[],
): ToolListing {
  const connectorTools = new Set(connectors.flatMap((connector) => connector.tools.map((tool) => tool.name)));

  /** Tools of the orchestrator's other agents (functions, MCP servers), each with the agent serving it. */
  function agentTools(): { tool: AgentTool; agent: Agent }[] {
    if (!orchestrator.listTools || !orchestrator.listAgents) return [];
    const routed = new Map<string, AgentTool>();
    for (const tool of orchestrator.listTools()) {
      // Connector tools follow the exposure rule; connectors not given to the gateway are not served.
      if (tool.connectorId !== undefined || connectorTools.has(tool.name)) continue;
      if (tool.name === refreshConnectorStatusToolName) continue;
      routed.set(tool.name, tool);
    }
    if (routed.size === 0) return [];
    // The registry routes the definition object an agent's manifest returned; of two agents declaring
    // a name, that one owns it. Agents building fresh objects per manifest fall back to the first declarer.
    const owners = new Map<string, Agent>();
    const declarers = new Map<string, Agent>();
    for (const agent of orchestrator.listAgents()) {
      let declared: readonly AgentTool[];
      try {
        declared = agent.manifest().tools;
      } catch {
        continue;
      }
      for (const tool of declared) {
        const current = routed.get(tool.name);
        if (current === undefined) continue;
        if (current === tool) owners.set(tool.name, agent);
        else if (!declarers.has(tool.name)) declarers.set(tool.name, agent);
      }
    }
    return [...routed.values()].flatMap((tool) => {
      const agent = owners.get(tool.name) ?? declarers.get(tool.name);
      return agent ? [{ tool, agent }] : [];
    });
  }

  /** Whether an agent answers now: by its observed health when it keeps one (no ping), else by `health()`. */
  async function agentUp(agent: Agent): Promise<boolean> {
    const observed = agent.observedHealth?.();
    if (observed) return observed.status === 'up';
    if (!orchestrator.health) return true;
    try {
      return (await orchestrator.health(agent.id)).status === 'up';
    } catch {
      return false;
    }
  }

  function startingAgents(): string[] {
    if (!orchestrator.listAgents) return [];
    return orchestrator
      .listAgents()
      .filter((agent) => agent.observedHealth?.().status === 'starting')
      .map((agent) => agent.id);
  }

  return {
    async list(snapshot) {
      const exposed = exposedTools(snapshot, connectors);
      // An agent an admin disabled (`patchbay disable <server>`) is left out, as a disabled connector is.
      const disabled = new Set(snapshot.disabledIds ?? []);
      const candidates = agentTools().filter(
        ({ tool, agent }) => !disabled.has(agent.id) && toolAvailability(tool, snapshot).available,
      );
      const probes = new Map<Agent, Promise<boolean>>();
      const up = await Promise.all(
        candidates.map(({ agent }) => {
          let probe = probes.get(agent);
          if (!probe) {
            probe = agentUp(agent);
            probes.set(agent, probe);
          }
          return probe;
        }),
      );
      const tools = [
        ...exposed.filter((tool) => !isMetaTool(tool)).map(toMcpTool),
        ...candidates.filter((_, index) => up[index]).map(({ tool }) => agentToolToMcp(tool)),
      ].sort(byName);
      return [...tools, ...exposed.filter(isMetaTool).map(toMcpTool)];
    },
    isConnectorTool: (name) => connectorTools.has(name),
    isAgentTool(name) {
      if (name === refreshConnectorStatusToolName) return false;
      const tool = orchestrator.getTool
        ? orchestrator.getTool(name)
        : orchestrator.listTools?.().find((candidate) => candidate.name === name);
      return tool !== undefined && tool.connectorId === undefined;
    },
    startingAgents,
    async waitForStartingAgents(limitMs, signal) {
      const end = performance.now() + limitMs;
      let starting = startingAgents();
      while (starting.length > 0 && performance.now() < end && !signal?.aborted) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(startPollMs, end - performance.now())));
        starting = startingAgents();
      }
      return starting;
    },
  };
}
