import type { McpServerConfig } from '@patchbay/mcp/client';
import { usageError } from '../cli-error.js';
import type { CommandValues } from '../command.js';
import { type ExitCode, exitCodes } from '../exit-codes.js';
import { mcpServersPath } from '../orchestrator-session.js';
import type { CliRuntime } from '../runtime.js';

/** The configured MCP server named `name`, or undefined (no file, or no such server). */
export async function findMcpServer(
  runtime: CliRuntime,
  name: string,
  explicitPath: string | undefined,
): Promise<McpServerConfig | undefined> {
  const path = mcpServersPath(runtime, explicitPath);
  if (!path) return undefined;
  const { loadMcpServersConfig } = await import('@patchbay/mcp/client');
  const config = await loadMcpServersConfig(path, { environment: runtime.settings.env });
  return config.servers.find((server) => server.name === name);
}

/** Opens a URL in the default browser; failures are reported, the printed URL still works. */
function openBrowser(url: string, runtime: CliRuntime): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  // Loaded here, not at import: node:child_process (with the modules behind it) would cost every
  // command's start-up CPU, and only this hand-off to a browser spawns anything.
  const { spawn } = process.getBuiltinModule('node:child_process');
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => runtime.note('Could not open a browser; open the URL above yourself.'));
    child.unref();
  } catch {
    runtime.note('Could not open a browser; open the URL above yourself.');
  }
}

function timeoutOf(values: CommandValues): number | undefined {
  const raw = values.timeout as string | undefined;
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw usageError('--timeout expects a number of seconds greater than 0.');
  }
  return Math.round(seconds * 1000);
}

/**
 * `patchbay connect <server>` for an MCP server that signs in with OAuth: prints the authorization
 * URL (and opens it with `--open`), waits for the loopback redirect, stores the tokens encrypted
 * for the subject and says which tools the server now offers. Tokens are never printed.
 */
export async function connectMcpServer(
  runtime: CliRuntime,
  server: McpServerConfig,
  values: CommandValues,
): Promise<ExitCode> {
  if (server.transport !== 'streamable-http' || server.auth === 'none') {
    throw usageError(
      `The MCP server "${server.name}" does not sign in with OAuth (${
        server.transport === 'stdio' ? 'it runs over stdio' : '"auth" is "none"'
      }); set its credentials in mcp-servers.json ("env" or "headers").`,
    );
  }
  const timeoutMs = timeoutOf(values);
  const { authorizeMcpServer } = await import('@patchbay/mcp/client');
  const { subject } = runtime.settings;
  const store = runtime.store();
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    const result = await authorizeMcpServer(server, {
      store,
      subject,
      timeoutMs,
      signal: abort.signal,
      onAuthorizationUrl: (url) => {
        runtime.note(`To sign in to ${server.name}, open this URL in a browser:\n\n  ${url.href}\n`);
        if (values.open === true) openBrowser(url.href, runtime);
        runtime.note('Waiting for the sign-in to finish…');
      },
    });
    await store.audit.append({
      event: 'mcp_server_connected',
      subject,
      server: server.name,
      scopes: result.scopes,
    });
    if (runtime.settings.json) {
      runtime.printJson({
        server: server.name,
        status: result.status === 'authorized' ? 'connected' : 'no_sign_in_needed',
        scopes: result.scopes,
        tools: result.tools,
      });
    } else if (result.status === 'not_needed') {
      runtime.print(`${server.name} answered without asking for a sign-in; nothing was stored.`);
    } else {
      runtime.print(
        `Signed in to ${server.name} for ${subject}. ` +
          `Granted scopes: ${result.scopes.length ? result.scopes.join(', ') : 'none stated'}. ` +
          `Tools: ${result.tools.length ? result.tools.join(', ') : 'none'}.`,
      );
    }
    return exitCodes.ok;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
