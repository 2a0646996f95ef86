import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import { loadMcpAgents, mcpServersPath } from '../orchestrator-session.js';
import { formatTable } from '../table.js';

/** `patchbay servers`: every MCP server from mcp-servers.json and its health. */
export const serversCommand: Command = {
  name: 'servers',
  usage: '[--mcp-config FILE]',
  summary: 'List MCP servers from mcp-servers.json with their health and tools',
  examples: ['patchbay servers', 'patchbay servers --mcp-config ./mcp-servers.json --json'],
  options: { 'mcp-config': { type: 'string' } },
  positionals: { required: [] },
  async run(runtime, values) {
    const path = mcpServersPath(runtime, values['mcp-config'] as string | undefined);
    if (!path) {
      if (runtime.settings.json) runtime.printJson({ servers: [] });
      else runtime.print(`No MCP servers configured (no ${runtime.settings.home}/mcp-servers.json).`);
      return exitCodes.ok;
    }
    const agents = await loadMcpAgents(runtime, path);
    // Admin policy as it applies to this subject (`patchbay disable <server>`, for everyone or --user-only).
    // Only the servers' own rows are read: no connector's credentials are decrypted for this.
    const policy = await runtime.store().loadConnectors(
      runtime.settings.subject,
      agents.map((agent) => agent.id),
    );
    const disabled = new Set(policy.disabledConnectorIds);
    // Start every server at once; one that fails to start is reported as down, not thrown.
    const results = await Promise.all(
      agents.map(async (agent) => {
        try {
          // The agent does not throw on a failed start: it stays down and its health says why.
          await agent.initialize().catch(() => undefined);
          const health = await agent.health();
          const tools = agent.manifest().tools.map((tool) => tool.name);
          // Tools the server listed that broke a limit on names, descriptions or schemas: never served.
          const dropped = agent.droppedTools();
          return {
            name: agent.id,
            status: health.status,
            ...(health.latencyMs !== undefined ? { latency_ms: health.latencyMs } : {}),
            // Machine-readable cause (command_not_found, needs_authorization, connection_refused, …).
            ...(health.reason !== undefined ? { reason: health.reason } : {}),
            ...(health.detail !== undefined ? { detail: health.detail } : {}),
            // An OAuth server without a (working) sign-in: the command that makes one.
            ...(health.setupCommand !== undefined ? { setup_command: health.setupCommand } : {}),
            trusted: agent.trusted,
            disabled: disabled.has(agent.id),
            tools,
            dropped_tools: dropped,
          };
        } finally {
          // Also when reading the server threw: its child must not keep the command from exiting.
          await agent.shutdown().catch(() => undefined);
        }
      }),
    );
    const conflicts = toolConflicts(results, await runtime.connectors());
    if (runtime.settings.json) runtime.printJson({ servers: results, tool_conflicts: conflicts });
    else {
      runtime.print(
        formatTable(
          ['NAME', 'STATUS', 'REASON', 'LATENCY', 'TOOLS', 'DETAIL'],
          results.map((server) => [
            server.name,
            server.disabled ? `${server.status} (disabled)` : server.status,
            server.reason ?? '-',
            server.latency_ms !== undefined ? `${server.latency_ms} ms` : '-',
            String(server.tools.length),
            server.detail ?? '',
          ]),
        ),
      );
      for (const server of results) {
        for (const tool of server.dropped_tools) {
          runtime.print(`Tool "${tool.name}" of server ${server.name} was dropped: ${tool.detail}.`);
        }
      }
      for (const conflict of conflicts) {
        runtime.print(
          `Tool "${conflict.tool}" is declared by ${conflict.owners.join(' and ')}: no one serves it until a "prefix" in the servers file tells them apart.`,
        );
      }
    }
    return exitCodes.ok;
  },
};

/** A tool name more than one server (or a server and an installed connector) declares. */
interface ToolNameConflict {
  tool: string;
  /** Server names, and `connector:<id>` for an installed connector. */
  owners: string[];
}

/**
 * The names the gateway would refuse to route: declared by two servers, or by a server and a
 * connector. The orchestrator serves neither (it will not guess), so the operator hears it here.
 */
function toolConflicts(
  servers: readonly { name: string; tools: readonly string[] }[],
  connectors: readonly { id: string; tools: readonly { name: string }[] }[],
): ToolNameConflict[] {
  const owners = new Map<string, string[]>();
  const add = (tool: string, owner: string) => {
    const list = owners.get(tool) ?? [];
    if (!list.includes(owner)) list.push(owner);
    owners.set(tool, list);
  };
  for (const connector of connectors)
    for (const tool of connector.tools) add(tool.name, `connector:${connector.id}`);
  for (const server of servers) for (const tool of server.tools) add(tool, server.name);
  return [...owners]
    .filter(([, list]) => list.length > 1)
    .map(([tool, list]) => ({ tool, owners: list }))
    .sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}
