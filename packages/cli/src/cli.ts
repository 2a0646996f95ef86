#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Cached V8 bytecode roughly halves start-up for the larger dependencies (zod, the tokenizer);
// enabled before anything else loads, hence the dynamic import below.
enableCompileCache?.();
const { runCli } = await import('./run-cli.js');
process.exitCode = await runCli(process.argv.slice(2));
