#!/usr/bin/env node
// A namespace import: a named import of a function Node 20 lacks would fail at link time with a
// SyntaxError before the version check below could say what is wrong.
import * as nodeModule from 'node:module';

/** The Node versions `engines.node` allows: ^22.22.2 || ^24.15.0 || >=26 (node:sqlite and more). */
function supportedNode(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (major === 22) return minor > 22 || (minor === 22 && patch >= 2);
  if (major === 24) return minor >= 15;
  return major >= 26;
}

if (!supportedNode(process.versions.node)) {
  process.stderr.write(
    `patchbay needs Node.js ^22.22.2, ^24.15.0 or >=26.0.0 (this is ${process.versions.node}). ` +
      'Install a supported Node.js and run it again.\n',
  );
  process.exit(1);
}

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
nodeModule.enableCompileCache?.();
const { runCli } = await import('./run-cli.js');
process.exitCode = await runCli(process.argv.slice(2));
