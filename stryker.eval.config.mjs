// @ts-check
// `pnpm mutate:eval`: how many mutants of the turn loop and the gate does `pnpm eval` kill on its own?
// Stryker instruments the files below in place (every mutant behind a switch), rebuilds the two
// packages once (the evals import their dist/), then runs the eval suite once per mutant with
// `__STRYKER_ACTIVE_MUTANT__` set. The command is the suite without promptfoo
// (evals/scripts/check-scenarios.mjs: the same scenarios, runner and checks as `pnpm eval`, stopping
// at the first failure), since promptfoo's start-up would multiply by every mutant.
// `inPlace`: a sandbox copy would lose pnpm's workspace links; Stryker restores the files when done.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  // adversary-unoffered-tool-after-status-change is skipped until runTurn refuses calls of tools not
  // offered this step (tool_unavailable, in review on another branch): on main it fails, and the
  // initial run must pass.
  commandRunner: {
    command:
      'node evals/scripts/check-scenarios.mjs --bail --quiet --skip adversary-unoffered-tool-after-status-change',
  },
  buildCommand:
    'pnpm --filter @patchbay/turn --filter @patchbay/orchestrator run build',
  inPlace: true,
  // Scoped to what one session can run twice (before and after; about 8-10 s per mutant on a busy
  // 2-core machine): the turn loop's step loop and its two decision tables, and the gate's status
  // step and pipeline. Routing, validation and write-back (call-pipeline.ts 1-64, 90-149) and
  // runCall's logs, spans and metrics (after line 178) are not measured here.
  mutate: [
    'packages/turn/src/turn-loop.ts',
    'packages/turn/src/call-decision.ts',
    'packages/turn/src/step-decision.ts',
    'packages/orchestrator/src/call-pipeline.ts:65-89',
    'packages/orchestrator/src/call-pipeline.ts:150-178',
  ],
  // Only the mutated files get `// @ts-nocheck` (the default marks every file, in place).
  disableTypeChecks:
    '{packages/turn/src/{turn-loop,call-decision,step-decision}.ts,packages/orchestrator/src/call-pipeline.ts}',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'evals/mutation/eval/mutation.json' },
  htmlReporter: { fileName: 'evals/mutation/eval/mutation.html' },
  concurrency: 2,
  // An infinite-loop mutant costs the whole timeout; a normal run takes 4-8 s here.
  timeoutMS: 10000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
