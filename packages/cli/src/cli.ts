#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node 22 warns "SQLite is an experimental feature" when the store loads node:sqlite. To someone
// running `patchbay` that is noise about our internals (and it lands in MCP hosts' logs); every
// other warning still prints. Installed before the dynamic import below loads the store.
const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (text.startsWith('SQLite is an experimental feature')) return;
  emitWarning(warning, ...rest);
}) as typeof process.emitWarning;

// Cached V8 bytecode roughly halves start-up for the larger dependencies (zod, the tokenizer);
// enabled before anything else loads, hence the dynamic import below.
enableCompileCache?.();
const { runCli } = await import('./run-cli.js');
process.exitCode = await runCli(process.argv.slice(2));
