import type { Command } from '../command.js';
import { approveCommand, rejectCommand } from './approvals.js';
import { callCommand } from './call.js';
import { connectCommand, disconnectCommand } from './connect.js';
import { connectorsCommand } from './connectors.js';
import { consoleCommand } from './console.js';
import { contextCommand } from './context.js';
import { keysCommand } from './keys.js';
import { mcpCommand } from './mcp.js';
import { memoryCommand } from './memory.js';
import { disableCommand, enableCommand } from './policy.js';
import { proposalsCommand } from './proposals.js';
import { serversCommand } from './servers.js';

/** Every subcommand, in help order. */
export const commands: readonly Command[] = [
  connectorsCommand,
  connectCommand,
  disconnectCommand,
  disableCommand,
  enableCommand,
  contextCommand,
  serversCommand,
  callCommand,
  proposalsCommand,
  approveCommand,
  rejectCommand,
  consoleCommand,
  mcpCommand,
  memoryCommand,
  keysCommand,
];
