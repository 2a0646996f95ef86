import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { McpAgent } from '@patchbay/mcp/client';
import type { Agent, Orchestrator } from '@patchbay/orchestrator';
import type { CliRuntime } from './runtime.js';

/** Name of the MCP servers file looked up in the Patchbay home. */
export const mcpServersFileName = 'mcp-servers.json';

/** The MCP servers file in use: `--mcp-config` or `<home>/mcp-servers.json`, if it exists. */
export function mcpServersPath(runtime: CliRuntime, explicit: string | undefined): string | undefined {
  // Relative to the working directory runCli was given, like --home and --config.
  if (explicit) return resolve(runtime.settings.cwd, explicit);
  const path = join(runtime.settings.home, mcpServersFileName);
  return existsSync(path) ? path : undefined;
}

/**
 * Creates one MCP agent per server in the file (not started), signing in to OAuth servers with the
 * subject's stored tokens. One-shot commands wait a minute before
 * reconnecting a dropped server (they are done by then); `longRunning` keeps the agents' own backoff.
 */
export async function loadMcpAgents(
  runtime: CliRuntime,
  path: string,
  options: { longRunning?: boolean } = {},
): Promise<McpAgent[]> {
  const { createMcpAgents, loadMcpServersConfig } = await import('@patchbay/mcp/client');
  const config = await loadMcpServersConfig(path, { environment: runtime.settings.env });
  // Remote servers that sign in with OAuth use the subject's tokens from `patchbay connect <server>`.
  const oauth = { store: runtime.store(), subject: runtime.settings.subject };
  const agents = createMcpAgents(
    config,
    options.longRunning ? { oauth } : { oauth, reconnect: { initialDelayMs: 60_000 } },
  );
  // Whatever a command does with them (or fails to), every server is shut down before the CLI ends:
  // a stdio child still running keeps the process from exiting.
  for (const agent of agents) runtime.shutDownOnClose(agent);
  return agents;
}

/**
 * The agent as a one-shot call needs it: only the called tool in its manifest. A server's other
 * tools can share a name with a connector tool or with each other; registering them would throw,
 * and they are not what the call is about (the gateway and `patchbay servers` report such names).
 */
function servingOnly(agent: McpAgent, tool: string): Agent {
  return {
    id: agent.id,
    trusted: agent.trusted,
    initialize: () => agent.initialize(),
    shutdown: () => agent.shutdown(),
    execute: (name, args, context) => agent.execute(name, args, context),
    health: () => agent.health(),
    observedHealth: () => agent.observedHealth(),
    onToolsChanged: (listener) => agent.onToolsChanged(listener),
    manifest() {
      const manifest = agent.manifest();
      return { ...manifest, tools: manifest.tools.filter((candidate) => candidate.name === tool) };
    },
  };
}

/** Options of {@link withOrchestrator}. */
export interface OrchestratorSessionOptions {
  /** Also serve MCP servers from this file (only when the tool is not a connector tool). */
  mcpServers?: string | undefined;
  /** The tool about to be called; MCP servers are started only if no connector serves it. */
  tool?: string | undefined;
}

/** What {@link withOrchestrator} learned while setting up, for the work to act on. */
export interface OrchestratorSession {
  /**
   * With `tool`: the MCP servers that all serve it, when more than one does. None of them is
   * registered (the gateway and `runTurn` would serve neither), so the work should refuse the call
   * with `sharedToolNameMessage`.
   */
  sharedBy: string[] | undefined;
}

/**
 * Runs `work` with an orchestrator built exactly as an agent runtime builds it: the installed
 * connectors as agents, the store as status source and proposal store. Started before, stopped
 * after, so every gate (status, scopes, schema, approval, timeout) applies to CLI calls too.
 */
export async function withOrchestrator<T>(
  runtime: CliRuntime,
  options: OrchestratorSessionOptions,
  work: (orchestrator: Orchestrator, session: OrchestratorSession) => Promise<T>,
): Promise<T> {
  const { createOrchestrator } = await import('@patchbay/orchestrator');
  const connectors = await runtime.connectors();
  const store = runtime.store();
  const orchestrator = createOrchestrator({
    statusSource: store,
    connectors,
    proposals: store.proposals,
    audit: store.audit,
  });
  const tool = options.tool;
  const servesTool = tool !== undefined && orchestrator.getTool(tool) !== undefined;
  const session: OrchestratorSession = { sharedBy: undefined };
  const agents = options.mcpServers && !servesTool ? await loadMcpAgents(runtime, options.mcpServers) : [];
  let started = false;
  try {
    if (tool === undefined) {
      for (const agent of agents) orchestrator.register(agent);
    } else if (agents.length > 0) {
      // A one-shot call starts only the servers that may serve the tool, not every configured one.
      const { startToolOwner } = await import('@patchbay/mcp/internal');
      const { owner, owners } = await startToolOwner(agents, tool);
      if (owners.length > 1) session.sharedBy = owners.map((agent) => agent.id);
      // No owner: register them all, so the answer is the gate's usual one (a server that is down,
      // with when it retries) rather than "no such tool" for a tool whose server failed to start.
      else for (const agent of owner ? [owner] : agents) orchestrator.register(servingOnly(agent, tool));
    }
    started = true;
    await orchestrator.start();
    return await work(orchestrator, session);
  } finally {
    // Also when registering or starting threw: a server started above must not outlive the command.
    if (started) await orchestrator.stop();
    await Promise.all(agents.map((agent) => agent.shutdown().catch(() => undefined)));
  }
}
