import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import { mcpServersPath } from '../orchestrator-session.js';
import type { CliRuntime } from '../runtime.js';

/**
 * What the policy names: an installed connector, else an MCP server of the servers file. Policy may
 * name one that is not installed here (another instance may have it), but a typo should not pass
 * silently: an id that is neither gets the connector's "unknown, did you mean" error.
 */
async function policyTarget(
  runtime: CliRuntime,
  id: string,
  mcpConfig: string | undefined,
): Promise<'connector' | 'server'> {
  try {
    await runtime.connector(id);
    return 'connector';
  } catch (error) {
    const path = mcpServersPath(runtime, mcpConfig);
    if (path) {
      const { loadMcpServersConfig } = await import('@patchbay/mcp/client');
      const config = await loadMcpServersConfig(path, { environment: runtime.settings.env });
      if (config.servers.some((server) => server.name === id)) return 'server';
    }
    throw error;
  }
}

/**
 * Disables or enables a connector (or MCP server) by admin policy, for everyone (`subject`
 * undefined) or one user, and audits it. Returns false when enabling found no rule to remove. What
 * `patchbay disable/enable` and the console both do.
 */
export async function applyPolicy(
  runtime: CliRuntime,
  action: 'disable' | 'enable',
  id: string,
  subject: string | undefined,
  kind: 'connector' | 'server' = 'connector',
): Promise<boolean> {
  const store = runtime.store();
  let changed = true;
  // One policy table for both: an MCP server's name is its agent id, which the gate, the turn and
  // the gateway look up as they look up a connector id.
  if (action === 'disable') await store.disableConnector(id, subject);
  else changed = await store.enableConnector(id, subject);
  await store.audit.append({ event: `${kind}_${action}d`, connector: id, subject: subject ?? '*' });
  return changed;
}

/** Builds `disable` or `enable`: the admin policy switches, for connectors and MCP servers alike. */
function policyCommand(action: 'disable' | 'enable'): Command {
  const verb = action === 'disable' ? 'Disable' : 'Enable';
  return {
    name: action,
    usage: '<id> [--user-only] [--mcp-config FILE]',
    summary: `${verb} a connector or MCP server by admin policy (everyone, or only --user with --user-only)`,
    examples: [
      `patchbay ${action} jira`,
      `patchbay ${action} slack --user alice --user-only`,
      `patchbay ${action} filesystem --mcp-config ./mcp-servers.json`,
    ],
    options: { 'user-only': { type: 'boolean', default: false }, 'mcp-config': { type: 'string' } },
    positionals: { required: ['id'] },
    async run(runtime, values, [id]) {
      const kind = await policyTarget(runtime, id!, values['mcp-config'] as string | undefined);
      const subject = values['user-only'] ? runtime.settings.subject : undefined;
      const changed = await applyPolicy(runtime, action, id!, subject, kind);
      const who = subject ? `for ${subject}` : 'for everyone';
      const what = kind === 'server' ? `MCP server ${id}` : id;
      if (runtime.settings.json)
        runtime.printJson({
          [kind === 'server' ? 'server' : 'connector']: id,
          action,
          subject: subject ?? null,
          changed,
        });
      else if (action === 'disable') runtime.print(`Disabled ${what} ${who}.`);
      else runtime.print(changed ? `Enabled ${what} ${who}.` : `${what} had no disable rule ${who}.`);
      return exitCodes.ok;
    },
  };
}

/** `patchbay disable <id>`. */
export const disableCommand = policyCommand('disable');
/** `patchbay enable <id>`. */
export const enableCommand = policyCommand('enable');
