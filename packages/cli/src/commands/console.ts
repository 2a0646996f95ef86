import type { ConnectorView, ConsoleBackend, McpServerView } from '@patchbay/console';
import { usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import { mcpServersPath } from '../orchestrator-session.js';
import type { CliRuntime } from '../runtime.js';
import { approveProposal, rejectProposal } from './approvals.js';
import { removeConnection, verifyAndStore } from './connect.js';
import { connectorStatusItems } from './connectors.js';
import { turnContext } from './context.js';
import { applyPolicy } from './policy.js';
import { parseInteger, untilStopped } from './serve-process.js';

/** How long a pending proposal can be approved: the orchestrator's default, which the CLI's orchestrators use. */
const proposalTtlMs = 24 * 60 * 60_000;

/**
 * The MCP servers of `path` as one user sees them: each started with that user's OAuth sign-in,
 * checked, and shut down again (the console holds no server open between reads).
 */
export async function mcpServerViews(
  runtime: CliRuntime,
  path: string,
  subject: string,
): Promise<McpServerView[]> {
  const { createMcpAgents, loadMcpServersConfig } = await import('@patchbay/mcp/client');
  const config = await loadMcpServersConfig(path, { environment: runtime.settings.env });
  const agents = createMcpAgents(config, {
    oauth: { store: runtime.store(), subject },
    reconnect: { initialDelayMs: 60_000 },
  });
  const policy = await runtime.store().loadConnectors(
    subject,
    agents.map((agent) => agent.id),
  );
  const disabled = new Set(policy.disabledConnectorIds);
  return Promise.all(
    agents.map(async (agent): Promise<McpServerView> => {
      try {
        await agent.initialize().catch(() => undefined);
        const health = await agent.health();
        // A remote server waiting for this user's sign-in is not broken: it is not set up yet.
        const status =
          health.status === 'up' || health.status === 'starting'
            ? health.status
            : health.setupCommand !== undefined && health.reason === 'needs_authorization'
              ? 'not_configured'
              : health.setupCommand !== undefined && health.reason === 'authorization_rejected'
                ? 'invalid_credentials'
                : 'down';
        return {
          name: agent.id,
          status,
          tools: health.status === 'up' ? agent.manifest().tools.map((tool) => tool.name) : [],
          ...(health.reason !== undefined ? { reason: health.reason } : {}),
          ...(health.detail !== undefined ? { detail: health.detail } : {}),
          ...(health.setupCommand !== undefined ? { setup_command: health.setupCommand } : {}),
          disabled: disabled.has(agent.id),
        };
      } finally {
        await agent.shutdown().catch(() => undefined);
      }
    }),
  );
}

/**
 * The console's backend over the CLI's own building blocks, so a click does exactly what the
 * command does: `approve` through the orchestrator's compare-and-set, `connect` through the
 * connector's `verify`, the same audit entries.
 */
export function cliConsoleBackend(runtime: CliRuntime, mcpServers: string | undefined): ConsoleBackend {
  return {
    store: runtime.store(),
    defaultSubject: runtime.settings.subject,
    proposalTtlMs,
    connectors: () => runtime.connectors(),
    approve: (id, decidedBy) => approveProposal(runtime, id, decidedBy, mcpServers),
    reject: (id, reason, decidedBy) => rejectProposal(runtime, id, reason, decidedBy),
    async connect(subject, connectorId, credentials) {
      const connector = await runtime.connector(connectorId);
      const outcome = await verifyAndStore(runtime, connector, credentials, subject);
      if (outcome.valid) return { status: 'connected', scopes: outcome.scopes, identity: outcome.identity };
      return {
        status: outcome.result.reason === 'unreachable' ? 'unreachable' : 'refused',
        reason: outcome.result.reason,
        message: outcome.message,
      };
    },
    disconnect: (subject, connectorId) => removeConnection(runtime, subject, connectorId),
    setPolicy: (action, connectorId, subject) => applyPolicy(runtime, action, connectorId, subject),
    async connectorStatus(subject) {
      // The same items `patchbay connectors --json` prints: the console's ConnectorView is their shape.
      return (await connectorStatusItems(runtime, subject)).items as unknown as ConnectorView[];
    },
    async turnContext(subject, options) {
      const { context, tokens, capturedAt } = await turnContext(runtime, subject, options);
      return { context, tokens, encoding: 'o200k_base', captured_at: capturedAt };
    },
    ...(mcpServers ? { mcpServers: (subject: string) => mcpServerViews(runtime, mcpServers, subject) } : {}),
  };
}

/** `patchbay console`: the local web page for approving, connecting and watching. */
export const consoleCommand: Command = {
  name: 'console',
  usage: '[--port N] [--mcp-config FILE]',
  summary: 'Open a local web page to approve proposals, connect accounts and watch activity',
  examples: ['patchbay console', 'patchbay console --port 7300 --user alice'],
  options: { port: { type: 'string' }, 'mcp-config': { type: 'string' } },
  positionals: { required: [] },
  async run(runtime, values) {
    const port = parseInteger(values.port, '--port', 0, 65_535) ?? 0;
    // Loaded on demand: nothing else in the CLI needs the console's server or its bundled app.
    const { startConsole } = await import('@patchbay/console');
    const mcpServers = mcpServersPath(runtime, values['mcp-config'] as string | undefined);
    // Discovery warnings now, not on the first page load.
    await runtime.connectors();
    const account = runtime.settings.env.USER ?? runtime.settings.env.USERNAME;
    let running: Awaited<ReturnType<typeof startConsole>>;
    // Written past the runtime's redaction on purpose: the redactor takes any `token=` value for a
    // secret, and this one must reach the person who started the console. It is good for one sign-in.
    const out = (text: string) => runtime.streams.stdout.write(`${text}\n`);
    try {
      running = await startConsole({
        backend: cliConsoleBackend(runtime, mcpServers),
        port,
        decidedBy: `console${account ? ` (${account})` : ''}`,
        // The used link is dead once the last session ends: the person gets a new one here.
        onSignInAgain: (loginUrl, why) => {
          const what = why === 'signed_out' ? 'Signed out' : 'The console session ended';
          if (runtime.settings.json) out(JSON.stringify({ event: why, login_url: loginUrl }));
          else out(`${what}. Open this link to sign in again (it works once):\n\n    ${loginUrl}\n`);
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw usageError(`Port ${port} is in use; pick another with --port, or leave it out for a free one.`);
      }
      throw error;
    }
    const stopped = untilStopped();
    if (runtime.settings.json) {
      out(
        JSON.stringify({ url: running.url, login_url: running.loginUrl, subject: runtime.settings.subject }),
      );
    } else {
      out(`Patchbay console for ${runtime.settings.subject} at ${running.url}`);
      out(`Open this link to sign in (it works once):\n\n    ${running.loginUrl}\n`);
      runtime.note('Press Ctrl+C to stop.');
    }
    await stopped;
    await running.close();
    return exitCodes.ok;
  },
};
