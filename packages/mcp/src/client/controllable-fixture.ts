import { fileURLToPath } from 'node:url';
import type { AgentCallContext } from '@patchbay/orchestrator';
import type { McpStdioServerConfig } from './config.js';

/** Path of the controllable test stand-in server (test-servers/controllable-server.mjs). */
export const controllableServerPath = fileURLToPath(
  new URL('../../test-servers/controllable-server.mjs', import.meta.url),
);

/**
 * Time limit of a test that starts MCP servers as child processes, of its hooks, and of every wait
 * in one (a `vi.waitFor` for a reconnect, a list_changed or an exit), so no inner wait fires before
 * the test's own. A server is a fresh node process: ~0.1 s to start and answer on a quiet machine,
 * 1–3 s with both cores busy; the slowest such test took 3 s quiet, 6 s beside two CPU hogs and a
 * second suite, and 12 s at a load average of 15 on two cores. 60 s is 5× that, so only a hang fails one.
 */
export const childServerTimeoutMs = 60_000;

/** A stdio config that runs the controllable test server with this Node binary. Tests only. */
export function controllableConfig(
  name: string,
  overrides: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [controllableServerPath],
    env: {},
    timeout: 10_000,
    autoStart: true,
    trust: false,
    ...overrides,
  };
}

let callCount = 0;

/** A call context with a fresh correlation id. Tests only. */
export function callContext(signal: AbortSignal = new AbortController().signal): AgentCallContext {
  callCount += 1;
  return { subject: 'test-user', signal, correlationId: `corr-${callCount}` };
}

/** True while a process with this id exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
