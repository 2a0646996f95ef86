import type { Readable, Writable } from 'node:stream';
import type { Orchestrator } from '@patchbay/orchestrator';
import { CliError, usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import { loadMcpAgents, mcpServersPath } from '../orchestrator-session.js';
import type { CliRuntime } from '../runtime.js';
import { cliVersion } from '../version.js';
import { parseInteger, untilStopped } from './serve-process.js';

/** Port of `patchbay mcp --http` when `--port` is not given. */
export const defaultMcpPort = 3100;

/** The orchestrator as the gateway reads it, with every MCP call written to the store's audit log. */
function audited(
  runtime: CliRuntime,
  orchestrator: Orchestrator,
): Pick<Orchestrator, 'execute' | 'listTools' | 'listAgents' | 'getTool' | 'health' | 'toolConflicts'> {
  return {
    listTools: () => orchestrator.listTools(),
    // The gateway names the servers sharing a name a host called, and the prefix that fixes it.
    toolConflicts: () => orchestrator.toolConflicts(),
    listAgents: () => orchestrator.listAgents(),
    getTool: (name) => orchestrator.getTool(name),
    health: orchestrator.health,
    async execute(name, args, options) {
      const envelope = await orchestrator.execute(name, args, options);
      const { audit } = runtime.store();
      const written = audit
        .append({
          event: 'tool_called',
          subject: options.subject,
          tool: name,
          owner: orchestrator.ownerOf(name),
          outcome: envelope.ok ? 'ok' : envelope.error_type,
          correlation_id: envelope.meta?.correlation_id,
          via: 'mcp',
        })
        .catch(() => runtime.note('warning: could not write the audit log'));
      // A batched log (Postgres by default) writes the row with the next batch: the host's answer
      // does not wait a round trip for it. A synchronous one is waited for, so an answered call is
      // on record (PATCHBAY_AUDIT_COMMIT=synchronous asks for that on Postgres).
      if (audit.synchronous) await written;
      return envelope;
    },
  };
}

/** `patchbay mcp`: serves the user's usable connectors to an MCP host, over stdio or streamable HTTP. */
export const mcpCommand: Command = {
  name: 'mcp',
  usage:
    '[--http [--port N] [--host 127.0.0.1] [--token T] [--allow-origin URL ...]] [--refresh-interval MS] [--mcp-config FILE]',
  summary:
    'Serve the connected connectors and the MCP servers of mcp-servers.json to an MCP host (stdio; --http for streamable HTTP)',
  examples: [
    'patchbay mcp                                  # stdio, for Claude Desktop, Cursor and other hosts',
    'patchbay mcp --user alice',
    `patchbay mcp --http --port ${defaultMcpPort}              # http://127.0.0.1:${defaultMcpPort}/mcp`,
    'PATCHBAY_MCP_TOKEN=… patchbay mcp --http       # every request must send Authorization: Bearer …',
  ],
  options: {
    http: { type: 'boolean', default: false },
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    'refresh-interval': { type: 'string' },
    'mcp-config': { type: 'string' },
  },
  positionals: { required: [] },
  async run(runtime, values) {
    const { createMcpGateway, isLoopbackHost, serveMcpGatewayHttp } = await import('@patchbay/mcp/gateway');
    const { createOrchestrator } = await import('@patchbay/orchestrator');
    const http = values.http === true;
    const allowOrigins = values['allow-origin'] as string[] | undefined;
    if (
      !http &&
      (values.port !== undefined ||
        values.host !== undefined ||
        values.token !== undefined ||
        allowOrigins !== undefined)
    ) {
      throw usageError('--port, --host, --token and --allow-origin apply to --http only.');
    }
    // The environment is the better place for it: a command line is visible to every local user.
    const token =
      (values.token as string | undefined) ?? (runtime.settings.env.PATCHBAY_MCP_TOKEN || undefined);
    if (token !== undefined && token.trim() === '') throw usageError('--token must not be empty.');
    if (token !== undefined) runtime.addSecret(token);
    const port = parseInteger(values.port, '--port', 0, 65_535) ?? defaultMcpPort;
    const host = (values.host as string | undefined) ?? '127.0.0.1';
    if (!isLoopbackHost(host)) {
      // Anyone who can reach the port acts as this user with their stored credentials: no remote binding.
      throw usageError(
        `--host must be a loopback address (127.0.0.1, ::1, localhost): the gateway has no authentication.`,
      );
    }
    const refreshIntervalMs = parseInteger(values['refresh-interval'], '--refresh-interval', 0, 86_400_000);
    const { subject } = runtime.settings;

    if (!http) {
      // stdout carries protocol messages only: stray console output from a connector module goes to stderr.
      console.log = console.error;
      console.info = console.error;
      console.debug = console.error;
    }

    const connectors = await runtime.connectors();
    const serversPath = mcpServersPath(runtime, values['mcp-config'] as string | undefined);
    const servers = serversPath ? await loadMcpAgents(runtime, serversPath, { longRunning: true }) : [];
    const store = runtime.store();
    const orchestrator = createOrchestrator({
      statusSource: store,
      connectors,
      proposals: store.proposals,
      audit: store.audit,
    });
    await orchestrator.start();
    // Registered after start, so each server connects in the background: the host gets its answer to
    // `initialize` at once, and hears tools/list_changed when a server's tools arrive (or leave).
    const started = servers.filter((agent) => agent.autoStart);
    for (const agent of started) orchestrator.register(agent);
    const serving = `${connectors.length} connector(s)${
      started.length > 0
        ? ` and ${started.length} MCP server(s) (${started.map((agent) => agent.id).join(', ')})`
        : ''
    }`;
    const gatewayOptions = {
      orchestrator: audited(runtime, orchestrator),
      connectors,
      statusSource: store,
      subject,
      version: cliVersion(),
      ...(refreshIntervalMs === undefined ? {} : { refreshIntervalMs }),
    };
    try {
      if (http) {
        const served = await serveMcpGatewayHttp({
          gateway: gatewayOptions,
          host,
          port,
          ...(http && token !== undefined ? { token } : {}),
          ...(allowOrigins === undefined ? {} : { allowedOrigins: allowOrigins }),
        }).catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EADDRINUSE' || code === 'EACCES') {
            throw new CliError(
              'port_unavailable',
              `Cannot listen on ${host}:${port} (${code === 'EADDRINUSE' ? 'already in use' : 'permission denied'}). Pick another with --port, or --port 0 for a free one.`,
            );
          }
          throw error;
        });
        runtime.note(`patchbay mcp: serving ${serving} for "${subject}" at ${served.url}`);
        await untilStopped();
        await served.close();
      } else {
        const { StdioServerTransport } = await import('../sdk.js');
        const stdin = runtime.streams.stdin as unknown as Readable;
        const gateway = createMcpGateway(gatewayOptions);
        const stopped = untilStopped((stop) => {
          // The SDK's stdio transport does not notice the host closing our stdin; we do.
          stdin.once('end', stop);
          stdin.once('close', stop);
        });
        await gateway.connect(new StdioServerTransport(stdin, runtime.streams.stdout as unknown as Writable));
        runtime.note(`patchbay mcp: serving ${serving} for "${subject}" over stdio`);
        await stopped;
        // Requests read just before the end of input still get their answers: let handlers start, then finish.
        await new Promise((resolve) => setImmediate(resolve));
        await gateway.settled();
        await gateway.close();
      }
    } finally {
      await orchestrator.stop();
    }
    return exitCodes.ok;
  },
};
