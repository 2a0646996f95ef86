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
    // Start every server at once; one that fails to start is reported as down, not thrown.
    const results = await Promise.all(
      agents.map(async (agent) => {
        // The agent does not throw on a failed start: it stays down and its health says why.
        await agent.initialize().catch(() => undefined);
        const health = await agent.health();
        const tools = agent.manifest().tools.map((tool) => tool.name);
        await agent.shutdown().catch(() => undefined);
        return {
          name: agent.id,
          status: health.status,
          ...(health.latencyMs !== undefined ? { latency_ms: health.latencyMs } : {}),
          // Machine-readable cause (command_not_found, needs_authorization, connection_refused, …).
          ...(health.reason !== undefined ? { reason: health.reason } : {}),
          ...(health.detail !== undefined ? { detail: health.detail } : {}),
          trusted: agent.trusted,
          tools,
        };
      }),
    );
    if (runtime.settings.json) runtime.printJson({ servers: results });
    else {
      runtime.print(
        formatTable(
          ['NAME', 'STATUS', 'REASON', 'LATENCY', 'TOOLS', 'DETAIL'],
          results.map((server) => [
            server.name,
            server.status,
            server.reason ?? '-',
            server.latency_ms !== undefined ? `${server.latency_ms} ms` : '-',
            String(server.tools.length),
            server.detail ?? '',
          ]),
        ),
      );
    }
    return exitCodes.ok;
  },
};
