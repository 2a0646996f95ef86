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
  commandRunner: { command: 'node evals/scripts/check-scenarios.mjs --bail --quiet' },
  buildCommand: 'pnpm --filter @patchbay/turn --filter @patchbay/orchestrator run build',
  inPlace: true,
  // Scoped to what one session could run twice (before and after the new scenarios) on a 2-core
  // machine shared by seven engineers (load average near 30, 30-60 s per mutant): the turn loop's two
  // decisions (which call runs, what follows a step) and the gate's pipeline (route → status →
  // validate → approve → run → write back). Widen `mutate` to whole files when the machine allows:
  // turn-loop.ts, step-calls.ts, call-decision.ts, step-decision.ts, call-pipeline.ts:1-178.
  mutate: [
    'packages/turn/src/call-decision.ts:73-97',
    'packages/turn/src/step-decision.ts:40-47',
    'packages/orchestrator/src/call-pipeline.ts:155-177',
  ],
  // Only the mutated files get `// @ts-nocheck` (the default marks every file, in place).
  disableTypeChecks:
    '{packages/turn/src/{call-decision,step-decision}.ts,packages/orchestrator/src/call-pipeline.ts}',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'evals/mutation/eval/mutation.json' },
  htmlReporter: { fileName: 'evals/mutation/eval/mutation.html' },
  concurrency: 2,
  // An infinite-loop mutant costs the whole timeout; a normal run takes 4-30 s here under load.
  timeoutMS: 20000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
