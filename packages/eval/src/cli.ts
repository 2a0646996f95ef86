#!/usr/bin/env node
// The patchbay-eval bin. It exits explicitly: a scenario's MCP child processes or HTTP servers are
// closed, but a live model's keep-alive sockets would otherwise hold the process open.
import { runCommand } from './command.js';

process.exit(await runCommand(process.argv.slice(2)));
