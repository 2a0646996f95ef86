import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { McpAgent } from '@patchbay/mcp';
import type { Orchestrator } from '@patchbay/orchestrator';
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
  const { createMcpAgents, loadMcpServersConfig } = await import('@patchbay/mcp');
  const config = await loadMcpServersConfig(path, { environment: runtime.settings.env });
  // Remote servers that sign in with OAuth use the subject's tokens from `patchbay connect <server>`.
  const oauth = { store: runtime.store(), subject: runtime.settings.subject };
  return createMcpAgents(
    config,
    options.longRunning ? { oauth } : { oauth, reconnect: { initialDelayMs: 60_000 } },
  );
}

/** Options of {@link withOrchestrator}. */
export interface OrchestratorSessionOptions {
  /** Also serve MCP servers from this file (only when the tool is not a connector tool). */
  mcpServers?: string | undefined;
  /** The tool about to be called; MCP servers are started only if no connector serves it. */
  tool?: string | undefined;
}

/**
 * Runs `work` with an orchestrator built exactly as an agent runtime builds it: the installed
 * connectors as agents, the store as status source and proposal store. Started before, stopped
 * after, so every gate (status, scopes, schema, approval, timeout) applies to CLI calls too.
 */
export async function withOrchestrator<T>(
  runtime: CliRuntime,
  options: OrchestratorSessionOptions,
  work: (orchestrator: Orchestrator) => Promise<T>,
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
  if (options.mcpServers && !servesTool) {
    const agents = await loadMcpAgents(runtime, options.mcpServers);
    if (tool === undefined) {
      for (const agent of agents) orchestrator.register(agent);
    } else {
      // A one-shot call starts only the server that serves the tool, not every configured one.
      const { startToolOwner } = await import('@patchbay/mcp');
      const { owner } = await startToolOwner(agents, tool);
      // No owner: register them all, so the answer is the gate's usual one (a server that is down,
      // with when it retries) rather than "no such tool" for a tool whose server failed to start.
      for (const agent of owner ? [owner] : agents) orchestrator.register(agent);
    }
  }
  await orchestrator.start();
  try {
    return await work(orchestrator);
  } finally {
    await orchestrator.stop();
  }
}
