import { fileURLToPath } from 'node:url';
import type { AgentCallContext } from '@patchbay/orchestrator';
import type { McpStdioServerConfig } from './config.js';

/** Path of the controllable test stand-in server (test-servers/controllable-server.mjs). */
export const controllableServerPath = fileURLToPath(
  new URL('../../test-servers/controllable-server.mjs', import.meta.url),
);

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
