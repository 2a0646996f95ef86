#!/usr/bin/env node
// `pnpm eval`: the Patchbay suite through @patchbay/eval under promptfoo (its HTML report), offline by
// default, with this repository's config (patchbay-eval.config.mjs).
//   node scripts/run-eval.mjs               the model under test (PATCHBAY_EVAL_MODEL, or the offline reference agent)
//   node scripts/run-eval.mjs --baselines   the naive baselines; fails if one passes a scenario aimed at it
//   --filter <regex>                        only scenarios whose id matches
// Results go to results/ (PATCHBAY_EVAL_RESULTS): promptfooconfig.json, results.json, report.html,
// summary.json ({ passed, failed }), matrix.html and matrix.png. Exits non-zero when a scenario fails,
// 2 before anything runs when the packages are not built or the command line or model is wrong.
import { join } from 'node:path';
import { buildFirstMessage, unbuiltPackages } from './unbuilt-packages.mjs';

const command = process.argv.includes('--baselines') ? 'pnpm eval:baselines' : 'pnpm eval';
const unbuilt = unbuiltPackages(join(import.meta.dirname, '..'));
if (unbuilt.length > 0) {
  console.error(`[eval] ${buildFirstMessage(command, unbuilt)}`);
  process.exit(2);
}

// Imported only now: before the check above this import was the 20-line ERR_MODULE_NOT_FOUND.
const { runCommand } = await import('@patchbay/eval');
const config = join(import.meta.dirname, '..', 'patchbay-eval.config.mjs');
process.exit(await runCommand(['run', '--config', config, '--promptfoo', ...process.argv.slice(2)]));
