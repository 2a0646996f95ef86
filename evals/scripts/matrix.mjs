#!/usr/bin/env node
// `pnpm --filter @patchbay/evals matrix`: redraws results/matrix.html and .png from the results files.
import { join } from 'node:path';
import { runCommand } from '@patchbay/eval';

const config = join(import.meta.dirname, '..', 'patchbay-eval.config.mjs');
process.exit(await runCommand(['matrix', '--config', config]));
